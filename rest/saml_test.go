package rest_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"
)

// selfSignedPEM is a throwaway X.509 certificate, as an identity provider's signing certificate.
func selfSignedPEM(t testing.TB) (pemText, base64DER string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "idp.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), base64.StdEncoding.EncodeToString(der)
}

func TestSAMLProvidersThroughBothDoors(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		editor := e.member(orgID, "editor@acme.test", "edit")
		otherID, otherAdmin := e.org("Other", "admin@other.test")
		base := "/orgs/" + orgID + "/saml"
		team := e.call(admin.Token, "PUT", "/orgs/"+orgID+"/teams", `{"title":"Writers"}`).want(http.StatusCreated).object()["id"].(string)
		certPEM, certB64 := selfSignedPEM(t)

		// A label alone makes a pending provider, with what to tell the identity provider.
		resp := e.call(admin.Token, "POST", base, `{"label":"Okta"}`).want(http.StatusCreated)
		pending := resp.object()
		id := pending["id"].(string)
		service := pending["service"].(map[string]any)
		if pending["status"] != "pending" || pending["object"] != "saml-provider" || service["acsURL"] != "https://bindery.test/auth/saml/"+id+"/acs" ||
			resp.Header.Get("Location") != "https://bindery.test/v1"+base+"/"+id {
			t.Fatalf("pending provider: %v (Location %q)", pending, resp.Header.Get("Location"))
		}
		// The identity provider's details make it active.
		patch := map[string]any{"entityID": "https://idp.test/metadata", "certificate": certPEM, "ssoURL": "https://idp.test/sso", "defaultRole": "edit", "defaultTeam": team}
		active := e.call(admin.Token, "PATCH", base+"/"+id, patch).want(http.StatusOK).object()
		if active["status"] != "active" || active["certificate"] != certB64 || active["defaultRole"] != "edit" ||
			active["defaultTeam"].(map[string]any)["id"] != team || active["label"] != "Okta" {
			t.Fatalf("active provider: %v", active)
		}
		if got := e.call(admin.Token, "GET", base+"/"+id, nil).want(http.StatusOK).object(); got["status"] != "active" || got["ssoURL"] != "https://idp.test/sso" {
			t.Fatalf("get: %v", got)
		}
		if l := e.call(admin.Token, "GET", base, nil).want(http.StatusOK).object(); l["count"] != float64(1) {
			t.Fatalf("list: %v", l)
		}

		// Bad input is refused and changes nothing.
		before := e.call(admin.Token, "GET", base+"/"+id, nil).Body
		e.wantBadBodies(admin.Token, "POST", base,
			badBody{"no label", `{}`, "label"}, badBody{"long label", `{"label":"` + strings.Repeat("x", 31) + `"}`, "label"})
		e.wantBadBodies(admin.Token, "PATCH", base+"/"+id,
			badBody{"certificate", `{"certificate":"not a certificate"}`, "certificate"},
			badBody{"sso URL", `{"ssoURL":"ftp://idp.test"}`, "ssoURL"},
			badBody{"unknown team", `{"defaultTeam":"nope"}`, "defaultTeam"},
			badBody{"role", `{"defaultRole":"owner"}`, "defaultRole"},
			badBody{"label null", `{"label":null}`, "label"})
		if after := e.call(admin.Token, "GET", base+"/"+id, nil).Body; string(after) != string(before) {
			t.Fatalf("refused changes were written:\n%s\n%s", before, after)
		}

		// Admins only; another organization's admin learns nothing.
		e.call(editor.Token, "GET", base, nil).wantError(http.StatusForbidden)
		e.call(editor.Token, "PATCH", base+"/"+id, `{"label":"Mine"}`).wantError(http.StatusForbidden)
		e.call(otherAdmin.Token, "GET", base+"/"+id, nil).wantError(http.StatusNotFound)
		e.call(otherAdmin.Token, "GET", "/orgs/"+otherID+"/saml/"+id, nil).wantError(http.StatusNotFound)
		e.call(otherAdmin.Token, "DELETE", "/orgs/"+otherID+"/saml/"+id, nil).want(http.StatusNoContent)

		// GraphQL sees the same provider and manages them too.
		g := e.gql(admin.Token, `query($o: ID!) { organization(id: $o) { samlProviders { totalCount nodes { id status defaultRole defaultTeam { id } service { startURL } } } } }`,
			map[string]any{"o": orgID})
		if g.Errors != nil || !strings.Contains(string(g.Data), `"status":"ACTIVE"`) || !strings.Contains(string(g.Data), `"defaultRole":"EDIT"`) ||
			!strings.Contains(string(g.Data), "/auth/saml/"+id+"/start") {
			t.Fatalf("GraphQL list: %s %+v", g.Data, g.Errors)
		}
		g = e.gql(admin.Token, `mutation($o: ID!) { createSAMLProvider(organizationId: $o, input: {label: "Entra"}) { id status } }`, map[string]any{"o": orgID})
		if g.Errors != nil || !strings.Contains(string(g.Data), `"status":"PENDING"`) {
			t.Fatalf("GraphQL create: %s %+v", g.Data, g.Errors)
		}
		e.wantInvalid("certificate", editor, `mutation($o: ID!) { createSAMLProvider(organizationId: $o, input: {label: ""}) { id } }`, map[string]any{"o": orgID}, "label")

		// Deleting answers 205, then 204 once it is gone.
		e.call(admin.Token, "DELETE", base+"/"+id, nil).want(http.StatusResetContent)
		e.call(admin.Token, "DELETE", base+"/"+id, nil).want(http.StatusNoContent)
		e.call(admin.Token, "GET", base+"/"+id, nil).wantError(http.StatusNotFound)
	})
}
