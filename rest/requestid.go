package rest

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5/middleware"
)

// requestIDPrefix is chi's: the host name and ten random characters.
var requestIDPrefix = func() string {
	host, err := os.Hostname()
	if host == "" || err != nil {
		host = "localhost"
	}
	var b64 string
	for len(b64) < 10 {
		var buf [12]byte
		rand.Read(buf[:]) //nolint:errcheck // crypto/rand never fails
		b64 = strings.NewReplacer("+", "", "/", "").Replace(base64.StdEncoding.EncodeToString(buf[:]))
	}
	return host + "/" + b64[:10]
}()

// requestID is chi's middleware.RequestID (the client's X-Request-Id, else prefix-%06d from chi's
// counter, under chi's context key so middleware.GetReqID reads it) without fmt: one allocation
// for the id instead of three.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(middleware.RequestIDHeader)
		if id == "" {
			id = formatRequestID(requestIDPrefix, middleware.NextRequestID())
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), middleware.RequestIDKey, id)))
	})
}

// formatRequestID is fmt.Sprintf("%s-%06d", prefix, n).
func formatRequestID(prefix string, n uint64) string {
	b := make([]byte, 0, 128)
	b = append(append(b, prefix...), '-')
	for limit := uint64(100000); limit >= 10 && n < limit; limit /= 10 {
		b = append(b, '0')
	}
	return string(strconv.AppendUint(b, n, 10))
}
