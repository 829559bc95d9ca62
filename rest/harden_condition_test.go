package rest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/bindery/bindery/storage"
)

// conditionBomb is finding 1 of issue 12: a condition whose evaluation builds a string of
// 2^20·10^6 bytes. Under plain expr-lang it took the process down on the next read.
const conditionBomb = `len(repeat(reduce(1..20, #acc + #acc, "ab"), 1000000)) > 0`

// A condition past the evaluator's budget is refused when written, through both doors, for site
// spaces and sections alike; one already stored fails closed on read, quickly.
func TestConditionBudget(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		site, base := o.site("Docs")
		pub := o.sectionAdd(site, o.space("", "Public"), nil)
		other := o.sectionAdd(site, o.space("", "Other"), nil)
		var ss siteSpaceJSON
		e.call(o.admin.Token, "POST", base+"/site-spaces", map[string]any{"spaceId": o.space("", "Beta"), "sectionId": pub.ID}).want(http.StatusCreated).decode(&ss)

		for _, bomb := range []string{conditionBomb, `all(1..250000, # >= 0 && # >= 0 && # >= 0 && # >= 0)`} {
			siteWantInvalid(t, "site space", e.call(o.admin.Token, "PATCH", base+"/site-spaces/"+ss.ID, map[string]any{"condition": bomb}), "condition", "budget")
			siteWantInvalid(t, "section", e.call(o.admin.Token, "PATCH", base+"/sections/"+other.ID, map[string]any{"condition": bomb}), "condition", "budget")
			e.wantInvalid("updateSiteSpace", o.admin, `mutation($o: ID!, $s: ID!, $id: ID!, $c: String) { updateSiteSpace(organizationId: $o, siteId: $s, siteSpaceId: $id, input: {condition: $c}) { id } }`,
				map[string]any{"o": o.id, "s": site, "id": ss.ID, "c": bomb}, "condition")
			e.wantInvalid("updateSiteSection", o.admin, `mutation($o: ID!, $s: ID!, $id: ID!, $c: String) { updateSiteSection(organizationId: $o, siteId: $s, siteSectionId: $id, input: {condition: $c}) { id } }`,
				map[string]any{"o": o.id, "s": site, "id": other.ID, "c": bomb}, "condition")
		}

		// Stored before the limit existed (written behind the application's back): the read
		// answers, hiding what the condition guards.
		bomb := conditionBomb
		if err := e.store.UpdateSiteSpace(context.Background(), &storage.SiteSpace{ID: ss.ID, OrganizationID: o.id, Condition: &bomb}, storage.SiteSpaceCondition); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		var g struct {
			Organization struct {
				Site struct {
					VisibleStructure struct {
						Sections []struct {
							Title      string
							SiteSpaces []struct{ Title string }
						}
					}
				}
			}
		}
		e.gql(o.admin.Token, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { visibleStructure(claims: {}) { sections {
			... on SiteSection { title siteSpaces { title } } } } } } }`, map[string]any{"o": o.id, "s": site}).ok(&g)
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("visibleStructure took %v", d)
		}
		for _, s := range g.Organization.Site.VisibleStructure.Sections {
			for _, x := range s.SiteSpaces {
				if x.Title == "Beta" {
					t.Errorf("a condition past its budget held: %+v", g)
				}
			}
		}
	})
}
