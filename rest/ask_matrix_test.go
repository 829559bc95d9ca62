package rest_test

// The permission matrix rows of Ask: an organization's Ask is open to every member, like its
// search (guests are answered from what they were given); a site's to those who may read the
// site. Asking changes nothing, so the ask POSTs count as reads for scoped tokens.

import "strings"

func init() { matrix = append(matrix, askMatrix()...) }

func askMatrix() []matrixCase {
	orgAsk := `query($o: ID!) { organization(id: $o) { ask(query: "hello") { found } } }`
	orgQuestions := `query($o: ID!) { organization(id: $o) { recommendedQuestions } }`
	return []matrixCase{
		{"POST", "/orgs/{organizationId}/ask", member, 200, org("/ask"), `{"query":"hello"}`, orgAsk},
		{"GET", "/orgs/{organizationId}/ask/stream", member, 200, org("/ask/stream?query=hello"), "", orgAsk},
		{"GET", "/orgs/{organizationId}/ask/questions", member, 200, org("/ask/questions"), "", orgQuestions},
		{"GET", "/orgs/{organizationId}/ask/questions/stream", member, 200, org("/ask/questions/stream"), "", orgQuestions},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/ask", insider, 200, site("/ask"), `{"question":"hello","scope":{"mode":"all"}}`,
			`query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { ask(question: "hello") { found } } } }`},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/ai/response", insider, 200, site("/ai/response"), `{"input":[{"role":"user","content":"hello"}]}`,
			`query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { ask(question: "hello") { found } } } }`},
		{"GET", "/orgs/{organizationId}/sites/{siteId}/ask/questions", insider, 200, site("/ask/questions"), "",
			`query($o: ID!, $si: ID!) { organization(id: $o) { site(id: $si) { recommendedQuestions } } }`},
	}
}

// asks reports whether a matrix case only asks a question (a read, whatever its method): Ask,
// AI responses, a site's search.
func asks(c matrixCase) bool {
	return c.method == "POST" && (strings.HasSuffix(c.path, "/ask") || strings.HasSuffix(c.path, "/ai/response") || strings.HasSuffix(c.path, "/sites/{siteId}/search"))
}
