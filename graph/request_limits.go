package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
)

// MaxBodyBytes bounds a GraphQL request sent as JSON, as REST bounds its bodies. Multipart
// requests (file uploads) have their own limit, MaxUploadBytes plus the operation.
const MaxBodyBytes = 1 << 20

// boundRequest reads a JSON POST body up to MaxBodyBytes and checks that it is a GraphQL request
// object before gqlgen sees it, answering itself (and returning false) when it is not. gqlgen would
// read any size, and echo a malformed body whole in its error, with Go's type names; the answers
// here name neither the input nor Go's types.
func boundRequest(w http.ResponseWriter, req *http.Request) bool {
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
	req.Body = io.NopCloser(bytes.NewReader(body))
	return true
}

// WriteRequestError answers a GraphQL request refused before it runs (rate limits, idempotency
// keys) in GraphQL's error shape, code in extensions.code.
func WriteRequestError(w http.ResponseWriter, status int, code, message string) {
	writeRequestError(w, status, code, message)
}

func writeRequestError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"errors": []map[string]any{{"message": message, "extensions": map[string]any{"code": code}}},
	})
}
