package dedup

import "strings"

// Texts for the tests: two distinct Chinese articles of one site, an
// English one, and the furniture a site wraps around them.
var (
	articleZH = []string{
		"近日，省林业局印发《森林抚育作业技术规程》，对中幼龄林抚育间伐的对象、强度和方式作出明确规定。",
		"规程要求，抚育间伐应当按照小班设计，伐后郁闭度不低于零点六，保留木分布均匀，严禁采大留小。",
		"对于宜林地造林，各地要根据立地条件选择乡土树种，推广混交造林模式，提高林分稳定性和抗逆性。",
		"造林后三年内要及时开展松土除草、补植补造等抚育措施，确保造林成活率达到百分之八十五以上。",
		"省林业局将组织专家对各地森林抚育项目进行检查验收，验收结果与下一年度资金安排挂钩。",
		"各地林业主管部门要加强技术培训，建立健全森林经营档案，做到林相图和小班因子调查数据完整准确。",
	}
	otherZH = []string{
		"今年以来，全省森林防火形势总体平稳，未发生重大森林火灾，森林火灾受害率控制在千分之零点九以内。",
		"省森林防火指挥部要求，各地要严格落实野外火源管控措施，加强重点时段和重点区域的巡护检查。",
		"各级林业部门要加快防火通道和阻隔带建设，配齐扑火机具，组织开展扑火队伍实战演练。",
		"清明节期间祭祀用火需求集中，各地要设置临时检查站，劝导群众文明祭扫，严防火灾发生。",
		"气象部门将加强森林火险等级预报，及时发布高火险预警信息，为防火工作提供科学依据。",
		"对于违规用火行为，各地要依法从严查处，典型案例要公开曝光，形成有力震慑。",
	}
	articleEN = []string{
		"The state forestry bureau has issued new technical rules for tending and thinning young and middle-aged stands across the province.",
		"Under the rules, thinning must follow the compartment plan, canopy density after felling must stay above 0.6, and the retained trees must be evenly spread.",
		"Planting on land suitable for forests should use native species chosen for the site conditions, with mixed stands encouraged to improve resilience.",
		"For three years after planting, crews must loosen soil, weed and replant gaps so that survival reaches at least eighty-five percent.",
		"Experts from the bureau will inspect tending projects in every county, and the results will shape next year's funding.",
	}
	headerZH = "首页 | 机构设置 | 政务公开 | 办事服务 | 互动交流 | 专题专栏"
	footerZH = "主办单位：浙江省林业局 承办单位：浙江省林业局信息中心\n版权所有 © 浙江省林业局 浙ICP备12345678号"
)

func join(lines ...string) string { return strings.Join(lines, "\n\n") }
