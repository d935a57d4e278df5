package charset

import (
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/encoding/unicode"
)

// Texts in the languages each legacy encoding serves.
const (
	zhHans = "国家林业和草原局发布了关于进一步加强森林经营工作的通知。各地要科学编制森林经营方案，" +
		"严格执行造林、抚育、间伐等技术规程，提高宜林地造林质量，落实小班和林班的管理责任。" +
		"通知要求，二〇二六年底前完成迹地拨交，建立健全森林资源监测体系，推进国土绿化行动。"
	zhHant = "國家林業局發佈了關於進一步加強森林經營工作的通知。各地要科學編製森林經營方案，" +
		"嚴格執行造林、撫育、間伐等技術規程，提高宜林地造林質量，落實小班和林班的管理責任。"
	ja = "日本の森林は国土の約三分の二を占めています。森林の手入れを行うことで、木材の生産だけでなく、" +
		"水源のかん養や土砂災害の防止など、さまざまな働きが発揮されます。"
	ko = "산림청은 올해 숲가꾸기 사업을 확대한다고 밝혔습니다. 나무를 심고 가꾸는 일은 " +
		"탄소 흡수와 산사태 예방에 큰 도움이 됩니다. 지역 주민의 참여도 늘어나고 있습니다."
	fr = "« Les forêts françaises » couvrent près d’un tiers du territoire — elles jouent un rôle " +
		"essentiel : régulation du climat, biodiversité, économie du bois. L’Office national gère été comme hiver."
	// zh18030 holds characters outside GBK: CJK extension A and B and an
	// emoji, which GB18030 encodes in four bytes.
	zh18030 = "古籍中的㐀字与𠀀字都收录于扩展区，表情😀也能编码。" + zhHans
)

func page(head, body string) string {
	return "<!DOCTYPE html>\n<html><head>" + head + "<title>Test</title></head><body><p>" + body + "</p></body></html>\n"
}

func encode(t *testing.T, e encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := e.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b
}

func TestDecode(t *testing.T) {
	utf16le := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)
	utf16be := unicode.UTF16(unicode.BigEndian, unicode.UseBOM)
	latinPage := "<!DOCTYPE html><html><head><title>Forêt</title></head><body><p>" + fr + "</p></body></html>"
	tests := []struct {
		name        string
		enc         encoding.Encoding
		text        string
		contentType string
		want        string // charset name
	}{
		{"gbk header", simplifiedchinese.GBK, page("", zhHans), "text/html; charset=GBK", "gbk"},
		{"gb2312 header", simplifiedchinese.GBK, page("", zhHans), "text/html;charset=gb2312", "gbk"},
		{"gb2312 quoted header", simplifiedchinese.GBK, page("", zhHans), `text/html; charset="gb2312"`, "gbk"},
		{"gbk meta charset", simplifiedchinese.GBK, page(`<meta charset="gbk">`, zhHans), "text/html", "gbk"},
		{"gb2312 http-equiv", simplifiedchinese.GBK, page(`<meta http-equiv="Content-Type" content="text/html; charset=gb2312">`, zhHans), "", "gbk"},
		{"gb2312 label, GBK-only characters", simplifiedchinese.GBK, page(`<meta charset=gb2312>`, "镕堃喆"+zhHans), "", "gbk"},
		{"gb18030 four-byte, header", simplifiedchinese.GB18030, page("", zh18030), "text/html; charset=gb18030", "gb18030"},
		{"gb18030 four-byte, labelled gbk", simplifiedchinese.GB18030, page("", zh18030), "text/html; charset=gbk", "gbk"},
		{"gb18030 four-byte, undeclared", simplifiedchinese.GB18030, page("", zh18030), "", "gb18030"},
		{"gbk undeclared", simplifiedchinese.GBK, page("", zhHans), "", "gbk"},
		{"gbk undeclared, header without charset", simplifiedchinese.GBK, page("", zhHans), "text/html", "gbk"},
		{"gbk undeclared, short", simplifiedchinese.GBK, page("", "森林经营方案与造林质量的通知。"), "", "gbk"},
		{"big5 meta", traditionalchinese.Big5, page(`<meta charset="big5">`, zhHant), "", "big5"},
		{"big5 undeclared", traditionalchinese.Big5, page("", zhHant), "", "big5"},
		{"shift_jis header", japanese.ShiftJIS, page("", ja), "text/html; charset=Shift_JIS", "shift_jis"},
		{"shift_jis undeclared", japanese.ShiftJIS, page("", ja), "", "shift_jis"},
		{"euc-kr meta", korean.EUCKR, page(`<meta http-equiv=content-type content="text/html;charset=euc-kr">`, ko), "", "euc-kr"},
		{"euc-kr undeclared", korean.EUCKR, page("", ko), "", "euc-kr"},
		{"windows-1252 header", charmap.Windows1252, latinPage, "text/html; charset=windows-1252", "windows-1252"},
		{"iso-8859-1 label is windows-1252", charmap.Windows1252, latinPage, "text/html; charset=ISO-8859-1", "windows-1252"},
		{"windows-1252 undeclared", charmap.Windows1252, latinPage, "", "windows-1252"},
		{"utf-16le bom", utf16le, page("", zhHans), "", "utf-16le"},
		{"utf-16be bom", utf16be, page("", zhHans), "", "utf-16be"},
		{"utf-16le bom beats header", utf16le, page("", zhHans), "text/html; charset=gbk", "utf-16le"},
		{"utf-8 undeclared", encoding.Nop, page("", zhHans), "", "utf-8"},
		{"utf-8 meta", encoding.Nop, page(`<meta charset="utf-8">`, zhHans), "", "utf-8"},
		{"utf-8 bom beats meta", encoding.Nop, "\ufeff" + page(`<meta charset="gbk">`, zhHans), "", "utf-8"},
		{"header beats meta", simplifiedchinese.GBK, page(`<meta charset="big5">`, zhHans), "text/html; charset=gbk", "gbk"},
		{"meta utf-16 means utf-8", encoding.Nop, page(`<meta charset="utf-16">`, zhHans), "", "utf-8"},
		{"false utf-8 header on gbk page", simplifiedchinese.GBK, page("", zhHans), "text/html; charset=utf-8", "gbk"},
		{"false utf-8 meta on gbk page", simplifiedchinese.GBK, page(`<meta charset="utf-8">`, zhHans), "", "gbk"},
		{"false gbk header on utf-8 page", encoding.Nop, page("", zhHans), "text/html; charset=gbk", "utf-8"},
		{"false gb2312 meta on utf-8 page", encoding.Nop, page(`<meta charset="gb2312">`, zhHans), "", "utf-8"},
		{"false windows-1252 header on utf-8 page", encoding.Nop, latinPage, "text/html; charset=windows-1252", "utf-8"},
		{"xml declaration without meta", simplifiedchinese.GBK, `<?xml version="1.0" encoding="GB2312"?>` + "\n" + page("", zhHans), "", "gbk"},
		{"meta beats xml declaration", simplifiedchinese.GBK, `<?xml version="1.0" encoding="big5"?>` + page(`<meta charset="gbk">`, zhHans), "", "gbk"},
		{"utf-16 header on an 8-bit page is ignored", simplifiedchinese.GBK, page(`<meta charset="gbk">`, zhHans), "text/html; charset=utf-16", "gbk"},
		{"utf-16le header without bom", unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), page("", zhHans), "text/html; charset=utf-16le", "utf-16le"},
		{"unknown header label falls to meta", simplifiedchinese.GBK, page(`<meta charset="gbk">`, zhHans), "text/html; charset=x-nonsense", "gbk"},
		{"ascii", encoding.Nop, "<html><body>plain</body></html>", "", "utf-8"},
		{"empty", encoding.Nop, "", "", "utf-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := encode(t, tt.enc, tt.text)
			got, name, err := Decode(body, tt.contentType)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if name != tt.want {
				t.Errorf("charset = %q, want %q", name, tt.want)
			}
			want := strings.TrimPrefix(tt.text, "\ufeff")
			if got != want {
				t.Errorf("text differs:\n got %.120q\nwant %.120q", got, want)
			}
			if !utf8.ValidString(got) {
				t.Error("output is not valid UTF-8")
			}
		})
	}
}

func TestDecodeAlwaysValidUTF8(t *testing.T) {
	bodies := map[string]struct {
		body []byte
		ct   string
	}{
		"garbage declared utf-8":   {[]byte("<p>\xff\xfe\xfd abc \xc3</p>"), "text/html; charset=utf-8"},
		"garbage undeclared":       {[]byte("\x80\x81\xfe\xff\x00\x9f"), ""},
		"truncated gbk":            {append(encode(t, simplifiedchinese.GBK, zhHans), 0xB0), "text/html; charset=gbk"},
		"odd utf-16":               {[]byte{0xFF, 0xFE, 'a', 0, 0xD8}, ""},
		"replacement label":        {[]byte("<p>x</p>"), "text/html; charset=iso-2022-kr"},
		"meta in unclosed comment": {[]byte("<!-- <meta charset=gbk> \xb0\xa1"), ""},
	}
	for name, tt := range bodies {
		t.Run(name, func(t *testing.T) {
			got, cs, _ := Decode(tt.body, tt.ct)
			if !utf8.ValidString(got) {
				t.Errorf("output %q is not valid UTF-8", got)
			}
			if cs == "" {
				t.Error("no charset named")
			}
		})
	}
}

func TestPrescan(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`<meta charset="gbk">`, "gbk"},
		{`<META CHARSET=Big5>`, "Big5"},
		{`<meta charset='shift_jis'/>`, "shift_jis"},
		{`<meta http-equiv="Content-Type" content="text/html; charset=gb2312">`, "gb2312"},
		{`<meta content="text/html; charset=gb2312" http-equiv="content-type">`, "gb2312"},
		{`<meta content='text/html; charset="euc-kr"' http-equiv=Content-Type>`, "euc-kr"},
		{`<meta content="text/html; charset=gb2312">`, ""}, // no pragma
		{`<meta name="description" content="charset=gbk">`, ""},
		{`<!-- <meta charset="big5"> --><meta charset="gbk">`, "gbk"},
		{`<div title="<meta charset=big5>"><meta charset="gbk">`, "gbk"},
		{`<metadata charset="big5"><meta charset="gbk">`, "gbk"},
		{`<meta charset="gbk" charset="big5">`, "gbk"},
		{strings.Repeat(" ", 1020) + `<meta charset="gbk">`, ""}, // beyond 1024 bytes
		{`<meta http-equiv="refresh" content="0; url=/charset=gbk">`, ""},
		{`<meta`, ""},
		{`<meta charset="`, ""},
	}
	for _, tt := range tests {
		if got := prescan([]byte(tt.in)); got != tt.want {
			t.Errorf("prescan(%.60q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDetermineSource(t *testing.T) {
	gbk := encode(t, simplifiedchinese.GBK, page(`<meta charset="gbk">`, zhHans))
	tests := []struct {
		body []byte
		ct   string
		want Source
	}{
		{append([]byte{0xEF, 0xBB, 0xBF}, 'a'), "text/html; charset=gbk", SourceBOM},
		{gbk, "text/html; charset=gbk", SourceHeader},
		{gbk, "text/html", SourceMeta},
		{encode(t, simplifiedchinese.GBK, page("", zhHans)), "", SourceDetected},
		{encode(t, simplifiedchinese.GBK, "<?xml version='1.0' encoding='gbk'?>"+page("", zhHans)), "", SourceXML},
		{[]byte("plain ascii"), "", SourceDefault},
	}
	for i, tt := range tests {
		if got := Determine(tt.body, tt.ct).Source; got != tt.want {
			t.Errorf("%d: source = %q, want %q", i, got, tt.want)
		}
	}
}

func TestLookup(t *testing.T) {
	for label, want := range map[string]string{
		"GB2312": "gbk", "x-gbk": "gbk", "GB18030": "gb18030", "chinese": "gbk",
		"utf8": "utf-8", "x-sjis": "shift_jis", "latin1": "windows-1252", "big5-hkscs": "big5",
	} {
		enc, name, err := Lookup(label)
		if err != nil || name != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", label, name, err, want)
		}
		if (want == "gbk" || want == "gb18030") && enc != simplifiedchinese.GB18030 {
			t.Errorf("Lookup(%q) does not decode with GB18030", label)
		}
	}
	if _, _, err := Lookup("klingon"); err == nil {
		t.Error("Lookup(klingon) succeeded")
	}
}

func BenchmarkDecodeUTF8(b *testing.B) {
	body := []byte(page(`<meta charset="utf-8">`, strings.Repeat(zhHans, 30)))
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		Decode(body, "text/html")
	}
}

func BenchmarkDecodeGBKUndeclared(b *testing.B) {
	body, _ := simplifiedchinese.GBK.NewEncoder().Bytes([]byte(page("", strings.Repeat(zhHans, 30))))
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		Decode(body, "")
	}
}

func TestMostlyUTF8KeepsItsName(t *testing.T) {
	text := page(`<meta charset="utf-8">`, zhHans+zhHans)
	tests := map[string]struct {
		body []byte
		ct   string
	}{
		"cut mid-character, declared":   {[]byte(text)[:len(text)-len("</p></body></html>\n")-1], "text/html; charset=utf-8"},
		"cut mid-character, undeclared": {[]byte(page("", zhHans))[:len(page("", zhHans))-len("</p></body></html>\n")-1], ""},
		"one stray byte":                {append([]byte(text[:200]), append([]byte{0xB0}, text[200:]...)...), "text/html"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got, cs, _ := Decode(tt.body, tt.ct)
			if cs != "utf-8" {
				t.Errorf("charset %q, want utf-8", cs)
			}
			if !strings.Contains(got, zhHans[:30]) {
				t.Errorf("text garbled: %.80q", got)
			}
		})
	}
}

// FuzzDecode: any bytes under any Content-Type decode to valid UTF-8 with
// a charset named, without panicking.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("<meta charset=gbk>\xb0\xa1"), "text/html")
	f.Add([]byte("\xff\xfe<\x00p\x00"), "")
	f.Add([]byte("<!--<meta charset=big5>-->\xa4\xa4"), "text/html; charset=")
	f.Add([]byte("\x1b$B"), "text/html; charset=iso-2022-jp")
	f.Fuzz(func(t *testing.T, body []byte, ct string) {
		text, name, _ := Decode(body, ct)
		if !utf8.ValidString(text) || name == "" {
			t.Fatalf("Decode(%q, %q) = %q, %q", body, ct, text, name)
		}
	})
}

func FuzzValidUTF8(f *testing.F) {
	for _, s := range []string{"", "abc", zhHans, "\xed\xa0\x80", "\xe0\x80\x80", "\xef\xbf\xbf", "\xe1\x80", "a\xf0\x9f\x98\x80b", "\xc0\xaf", "森林\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := validUTF8(b), utf8.Valid(b); got != want {
			t.Fatalf("validUTF8(%q) = %v, utf8.Valid %v", b, got, want)
		}
	})
}

func BenchmarkValidUTF8(b *testing.B) {
	body := []byte(page("", strings.Repeat(zhHans, 30)))
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		validUTF8(body)
	}
}
