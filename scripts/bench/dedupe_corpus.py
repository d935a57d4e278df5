#!/usr/bin/env python3
"""dedupe_corpus.py DATA_DIR REPO OUT.jsonl: a labelled near-duplicate corpus for dedupe.

Originals are real article texts: the gold article bodies of the 181 English news pages
(extraction/aeb) and the gold contents of the 35 Chinese pages (extraction/cwce-dev), the
long Chinese ones cut into articles of 8-16 lines. Articles are grouped into "sites" of 4;
each site has a template (navigation header, footer with address, copyright and ICP line)
that leaks into half of its pages. Every original gets copies, each labelled with its kind:

  boiler   the template removed, or another site's template added (a syndicated copy)
  date     dates and numbers changed, a byline/source line added or changed
  reorder  two paragraphs swapped
  drop     one paragraph of five or more dropped
  trad     Chinese only: converted to traditional characters (table: internal/dedup)
  mixed    date + boiler + reorder together

Each doc's meta holds its cluster (the original's id) and kind. Distinct documents of one
site share a template: the hard negatives. Docs are shuffled with a fixed seed.
"""
import gzip, json, os, random, re, sys

data, repo, out = sys.argv[1], sys.argv[2], sys.argv[3]
rnd = random.Random(4)

# The traditional/simplified table of internal/dedup, inverted (simplified -> traditional).
src = open(os.path.join(repo, "internal/text/fold_table.go"), encoding="utf-8").read()
pairs = src[src.index("`") + 1: src.rindex("`")].split()
s2t = {}
for p in pairs:
    if len(p) == 2 and p[0] != p[1] and p[1] not in s2t:
        s2t[p[1]] = p[0]

def trad(s):
    return "".join(s2t.get(c, c) for c in s)

articles = []  # (lang, [paragraphs])
gt = json.load(open(os.path.join(data, "extraction/aeb/ground-truth.json"), encoding="utf-8"))
for k in sorted(gt):
    paras = [p.strip() for p in re.split(r"\n+", gt[k]["articleBody"]) if p.strip()]
    if sum(len(p) for p in paras) >= 300 and len(paras) >= 3:
        articles.append(("en", paras))
for line in open(os.path.join(data, "extraction/cwce-dev/gold.jsonl"), encoding="utf-8"):
    rec = json.loads(line)
    lines = [l.strip() for l in rec["content"].split("\n") if l.strip()]
    i = 0
    while i < len(lines):
        n = rnd.randint(8, 16)
        chunk = lines[i:i + n]
        i += n
        if sum(len(l) for l in chunk) >= 250 and len(chunk) >= 3:
            articles.append(("zh", chunk))

EN_NAV = ["Home", "News", "World", "Business", "Sport", "Tech", "Science", "Opinion", "Culture", "Travel", "Video"]
ZH_NAV = ["首页", "新闻中心", "政务公开", "办事服务", "互动交流", "专题专栏", "机构设置", "政策法规", "通知公告", "图片新闻"]
EN_NAMES = ["Alex Morgan", "Jamie Lee", "Sam Patel", "Chris Wong", "Taylor Reed", "Jordan Diaz"]
ZH_NAMES = ["张伟", "王芳", "李娜", "刘洋", "陈静", "杨帆", "赵磊", "黄敏"]
ZH_PLACES = ["浙江省", "江苏省", "四川省", "湖南省", "云南省", "福建省", "江西省", "广东省"]

def template(lang, site):
    r = random.Random(site)
    if lang == "en":
        name = r.choice(["Daily", "Herald", "Tribune", "Observer", "Courier", "Gazette"]) + " " + r.choice(["Post", "Times", "News", "Journal"])
        nav = " | ".join(r.sample(EN_NAV, 7))
        head = [nav, "Subscribe to the %s newsletter" % name]
        foot = ["Share this article: Facebook Twitter LinkedIn Email",
                "© %d %s Media Group. All rights reserved. Privacy policy | Terms of use | Cookie settings" % (r.randint(2015, 2025), name),
                "Contact us: newsroom@%s.example | Advertise with us" % name.split()[0].lower()]
    else:
        place = r.choice(ZH_PLACES)
        name = place + r.choice(["林业局", "自然资源厅", "人民政府", "农业农村厅", "生态环境厅"])
        nav = " | ".join(r.sample(ZH_NAV, 7))
        head = [nav, "当前位置：首页 > %s > 正文" % r.choice(ZH_NAV)]
        foot = ["【打印本页】【关闭窗口】【收藏】",
                "主办单位：%s 承办单位：%s信息中心" % (name, name),
                "地址：%s%s路%d号 邮编：%06d 联系电话：0%d-%08d" % (place, r.choice(["人民", "解放", "中山", "建设"]), r.randint(1, 300), r.randint(100000, 899999), r.randint(10, 999), r.randint(10000000, 99999999)),
                "版权所有 © %s ICP备%08d号 网站标识码%010d" % (name, r.randint(10000000, 99999999), r.randint(1000000000, 9999999999))]
    return head, foot

def byline(lang, r):
    date = "%d-%02d-%02d" % (r.randint(2015, 2025), r.randint(1, 12), r.randint(1, 28))
    if lang == "en":
        return "By %s | Published %s %02d:%02d" % (r.choice(EN_NAMES), date, r.randint(0, 23), r.randint(0, 59))
    return "发布时间：%s 来源：%s 作者：%s 浏览次数：%d" % (date, r.choice(ZH_PLACES) + "林业局", r.choice(ZH_NAMES), r.randint(10, 9999))

def change_numbers(p, r):
    return re.sub(r"\d+", lambda m: str(r.randint(1, 2025)) if r.random() < 0.7 else m.group(0), p)

def render(paras, tpl=None, by=None):
    head, foot = tpl if tpl else ([], [])
    lines = list(head) + ([by] if by else []) + list(paras) + list(foot)
    return "\n\n".join(lines)

docs = []
nsites = (len(articles) + 3) // 4
for i, (lang, paras) in enumerate(articles):
    site = i // 4
    host = "site%d.%s.test" % (site, lang)
    tpl = template(lang, site)
    leak = rnd.random() < 0.5
    by = byline(lang, rnd)
    cid = "c%d" % i
    title = paras[0][:40]
    def add(kind, content, h=host, n=0):
        docs.append({"url": "http://%s/a/%d/%s%d" % (h, i, kind, n), "title": title, "content": content,
                     "score": round(rnd.random(), 3), "relevant": True,
                     "meta": {"cluster": cid, "kind": kind, "site": site, "lang": lang}})
    add("original", render(paras, tpl if leak else None, by))
    kinds = ["boiler", "date", "reorder", "drop", "mixed"] + (["trad"] if lang == "zh" else [])
    for kind in rnd.sample(kinds, 3 if lang == "zh" else 2):
        r = random.Random(rnd.random())
        other = "site%d.%s.test" % ((site + 1 + r.randrange(nsites - 1)) % nsites, lang)
        p = list(paras)
        if kind == "boiler":
            c = render(p, None if leak else template(lang, other), by)
        elif kind == "date":
            c = render([change_numbers(x, r) if r.random() < 0.3 else x for x in p], tpl if leak else None, byline(lang, r))
        elif kind == "reorder":
            j = r.randrange(len(p) - 1)
            p[j], p[j + 1] = p[j + 1], p[j]
            c = render(p, tpl if leak else None, by)
        elif kind == "drop":
            if len(p) < 5:
                continue
            del p[r.randrange(1, len(p))]
            c = render(p, tpl if leak else None, by)
        elif kind == "trad":
            c = trad(render(p, tpl if leak else None, by))
        else:  # mixed
            j = r.randrange(len(p) - 1)
            p[j], p[j + 1] = p[j + 1], p[j]
            c = render(p, None if leak else template(lang, other), byline(lang, r))
        add(kind, c, other if kind in ("boiler", "mixed") else host)

rnd.shuffle(docs)
with open(out, "w", encoding="utf-8") as f:
    for d in docs:
        f.write(json.dumps(d, ensure_ascii=False) + "\n")
print("%d docs from %d articles (%d sites)" % (len(docs), len(articles), nsites), file=sys.stderr)
