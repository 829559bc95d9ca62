package rest

import (
	"strings"
	"testing"
)

func TestRisonToJSON(t *testing.T) {
	for in, want := range map[string]string{
		"(plan:pro,seats:3,beta:!t)":          `{"beta":true,"plan":"pro","seats":3}`,
		"(name:'Ada Lovelace',quote:'it!'s')": `{"name":"Ada Lovelace","quote":"it's"}`,
		"(tags:!(a,b),none:!n,off:!f,n:-1.5)": `{"n":-1.5,"none":null,"off":false,"tags":["a","b"]}`,
		"()":                                  `{}`,
		"(nested:(a:(b:1)))":                  `{"nested":{"a":{"b":1}}}`,
	} {
		got, err := risonToJSON(in)
		if err != nil || string(got) != want {
			t.Errorf("%s = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"plan:pro", "(plan:", "(plan:pro", "(plan:pro)x", "(a:!x)", "(a:'open)", "(!t:1)", "(a:1,,b:2)",
		strings.Repeat("(a:", 40) + "1" + strings.Repeat(")", 40)} {
		if _, err := risonToJSON(bad); err == nil {
			t.Errorf("%.40s: accepted", bad)
		}
	}
}
