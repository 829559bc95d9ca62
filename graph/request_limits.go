package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/bindery/bindery/domain/textinput"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// MaxBodyBytes bounds a GraphQL request sent as JSON, as REST bounds its bodies. Multipart
// requests (file uploads) have their own limit, domain.MaxUploadBytes plus the operation.
const MaxBodyBytes = 1 << 20

// boundRequest reads a JSON POST body up to MaxBodyBytes and checks that it is a GraphQL request
// object before gqlgen sees it, answering itself (and returning false) when it is not. gqlgen would
// read any size, and echo a malformed body whole in its error, with Go's type names; the answers
// here name neither the input nor Go's types.
func boundRequest(w http.ResponseWriter, req *http.Request) bool {
	if req.Method == http.MethodGet {
		return checkGETText(w, req)
	}
	if req.Method != http.MethodPost {
		return true
	}
	mediaType, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type"))
	if mediaType != "application/json" {
		return true
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeRequestError(w, http.StatusRequestEntityTooLarge, "REQUEST_TOO_LARGE", "the request body is larger than 1 MiB")
			return false
		}
		writeRequestError(w, http.StatusBadRequest, "BAD_REQUEST", "the request body could not be read")
		return false
	}
	var params struct {
		Query         string         `json:"query"`
		OperationName string         `json:"operationName"`
		Variables     map[string]any `json:"variables"`
		Extensions    map[string]any `json:"extensions"`
	}
	if err := json.Unmarshal(body, &params); err != nil {
		writeRequestError(w, http.StatusBadRequest, "BAD_REQUEST",
			"the request body must be a JSON object with a string query and optional operationName (string), variables and extensions (objects)")
		return false
	}
	if field, problem := textinput.FindBadJSON(body); problem != "" {
		// Variables are named as the operation knows them ("input.title"), as textInput does.
		writeGraphQLError(w, http.StatusUnprocessableEntity, textError(strings.TrimPrefix(field, "variables."), problem))
		return false
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	return true
}

// checkGETText checks the text of a GET request's parameters before gqlgen decodes them (JSON
// decoding would turn what is not text into U+FFFD), answering itself when one is refused.
func checkGETText(w http.ResponseWriter, req *http.Request) bool {
	q := req.URL.Query()
	for _, name := range []string{"query", "operationName", "variables", "extensions"} {
		v := q.Get(name)
		field, problem := name, textinput.Problem("")
		if name == "variables" || name == "extensions" { // JSON: name the value within
			var path string
			if path, problem = textinput.FindBadJSON([]byte(v)); path != "" && name == "variables" {
				field = path // variables are named as the operation knows them
			} else if path != "" {
				field = name + "." + path
			}
		} else {
			problem = textinput.Check(v)
		}
		if problem != "" {
			writeGraphQLError(w, http.StatusUnprocessableEntity, textError(field, problem))
			return false
		}
	}
	return true
}

// WriteRequestError answers a GraphQL request refused before it runs (rate limits, idempotency
// keys) in GraphQL's error shape, code in extensions.code.
func WriteRequestError(w http.ResponseWriter, status int, code, message string) {
	writeRequestError(w, status, code, message)
}

// writeGraphQLError answers one GraphQL error, extensions included, before the operation runs.
func writeGraphQLError(w http.ResponseWriter, status int, err *gqlerror.Error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"errors": gqlerror.List{err}})
}

func writeRequestError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"errors": []map[string]any{{"message": message, "extensions": map[string]any{"code": code}}},
	})
}
