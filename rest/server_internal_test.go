package rest

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestPanicsBecomeContractErrors(t *testing.T) {
	h := recoverPanics(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom: secret detail") }))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/orgs", nil))
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("status = %d, want 500", rec.Code)
	}
	if got, want := rec.Body.String(), `{"error":{"code":500,"message":"Internal error"}}`+"\n"; got != want {
		t.Errorf("body = %q, want %q", got, want)
	}
}
