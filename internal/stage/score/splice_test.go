package score

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestSplice(t *testing.T) {
	add := `{"score":0.5,"relevant":true,"links":[{"url":"u","priority":0.3}]}` + "\n"
	tests := []struct{ name, in, want string }{
		{"links replaced, others verbatim",
			`{"url":"http://a/","links":[{"url":"x","anchor":"a}b]"}],"meta":{"n":1.50,"s":"q\"}"},"extra":[1,{"links":2}]}`,
			`{"url":"http://a/","meta":{"n":1.50,"s":"q\"}"},"extra":[1,{"links":2}],"score":0.5,"relevant":true,"links":[{"url":"u","priority":0.3}]}`},
		{"old scores replaced, white space",
			" { \"score\" : 0.9 , \"relevant\":false, \"scores\": {\"vsm\":1}, \"url\":\"u\\\\\", \"n\": null, \"t\": true }\r",
			`{"url":"u\\","n": null,"t": true,"score":0.5,"relevant":true,"links":[{"url":"u","priority":0.3}]}`},
		{"only replaced keys", `{"links":[]}`, `{"score":0.5,"relevant":true,"links":[{"url":"u","priority":0.3}]}`},
		{"empty", `{}`, `{"score":0.5,"relevant":true,"links":[{"url":"u","priority":0.3}]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := splice(nil, []byte(tc.in), []byte(add))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			var a, b any
			if err := json.Unmarshal(got, &a); err != nil {
				t.Fatalf("invalid JSON: %v", err)
			}
			json.Unmarshal([]byte(tc.want), &b)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("decoded differently")
			}
		})
	}
	if _, err := splice(nil, []byte(`[1]`), []byte(add)); err == nil {
		t.Error("array: want an error")
	}
}
