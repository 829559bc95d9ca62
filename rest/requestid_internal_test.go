package rest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-chi/chi/v5/middleware"
)

func TestFormatRequestIDIsChis(t *testing.T) {
	for _, n := range []uint64{0, 7, 999999, 1000000, 18446744073709551615} {
		if got, want := formatRequestID("host/abc", n), fmt.Sprintf("%s-%06d", "host/abc", n); got != want {
			t.Errorf("formatRequestID(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestRequestIDKeepsTheClientsAndNumbersTheRest(t *testing.T) {
	var got string
	h := requestID(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = middleware.GetReqID(r.Context()) }))
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("X-Request-Id", "client-id")
	h.ServeHTTP(httptest.NewRecorder(), req)
	if got != "client-id" {
		t.Errorf("with the client's header: %q", got)
	}
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	if want := formatRequestID(requestIDPrefix, middleware.NextRequestID()-1); got != want {
		t.Errorf("without: %q, want %q", got, want)
	}
}
