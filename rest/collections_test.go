package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// collectionList is one page of a REST list of collections.
type collectionList = listPage[titled]

func TestCreateCollection(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		creator := e.member(o.id, "creator@acme.test", "create")
		reader := e.member(o.id, "reader@acme.test", "read")
		guest := e.member(o.id, "guest@acme.test", "guest")
		outsider := e.member("", "out@else.test", "")

		res := e.call(o.admin.Token, "POST", "/orgs/"+o.id+"/collections", nil).want(http.StatusCreated)
		golden(t, "collection_created", res.Body)
		c := res.object()
		id, _ := c["id"].(string)
		if loc := res.Header.Get("Location"); loc != c["urls"].(map[string]any)["location"] || loc != "https://bindery.test/v1/collections/"+id {
			t.Errorf("Location = %q, urls = %v, want both https://bindery.test/v1/collections/%s", loc, c["urls"], id)
		}
		for field, want := range map[string]any{"object": "collection", "title": "Untitled", "defaultLevel": "inherit", "organization": o.id} {
			if c[field] != want {
				t.Errorf("new collection %s = %v, want %v", field, c[field], want)
			}
		}
		for _, absent := range []string{"parent", "description"} {
			if v, ok := c[absent]; ok {
				t.Errorf("new collection has %s = %v", absent, v)
			}
		}
		if got := e.call(o.admin.Token, "GET", "/collections/"+id, nil).want(http.StatusOK).Body; string(got) != string(res.Body) {
			t.Errorf("GET after create differs:\n%s\n%s", res.Body, got)
		}

		// A creator administers their collection; readers read it.
		mine := o.newCollection(creator.Token, `{"title":"Guides"}`)
		mineID := mine["id"].(string)
		if mine["title"] != "Guides" {
			t.Errorf("title = %v", mine["title"])
		}
		o.wantCollectionRole(t, creator, "creator", mineID, "admin")
		o.wantCollectionRole(t, reader, "reader", mineID, "read")

		// Nested, through the creator's own collection.
		inner := o.newCollection(creator.Token, map[string]any{"title": "Inner", "parent": mineID})
		if inner["parent"] != mineID {
			t.Errorf("nested parent = %v, want %s", inner["parent"], mineID)
		}
		if got := e.call(reader.Token, "GET", "/collections/"+inner["id"].(string), nil).want(http.StatusOK).object(); got["parent"] != mineID {
			t.Errorf("GET nested parent = %v", got["parent"])
		}

		count := func() float64 {
			t.Helper()
			return e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/collections", nil).want(http.StatusOK).object()["count"].(float64)
		}
		before := count()
		closed := o.collection("", "Closed")
		o.level("/collections/"+closed, "null")
		before++
		e.wantBadBodies(creator.Token, "POST", "/orgs/"+o.id+"/collections",
			badBody{"title too long", `{"title":"` + strings.Repeat("a", 51) + `"}`, "title"},
			badBody{"title not a string", `{"title":true}`, "title"},
			badBody{"unknown parent", `{"parent":"nope"}`, "parent"},
			badBody{"parent the caller cannot see", `{"parent":"` + closed + `"}`, "parent"},
			badBody{"malformed JSON", `{`, "body"},
		)
		e.call(reader.Token, "POST", "/orgs/"+o.id+"/collections", `{"title":"Mine"}`).wantError(http.StatusForbidden)
		e.call(guest.Token, "POST", "/orgs/"+o.id+"/collections", `{"title":"Mine"}`).wantError(http.StatusForbidden)
		e.call(outsider.Token, "POST", "/orgs/"+o.id+"/collections", `{"title":"Mine"}`).wantError(http.StatusNotFound)
		// Inside someone else's collection, a member needs create on it: a read-only collection
		// refuses even members with the create role.
		o.level("/collections/"+mineID, `"read"`)
		otherCreator := e.member(o.id, "creator2@acme.test", "create")
		e.call(otherCreator.Token, "POST", "/orgs/"+o.id+"/collections", map[string]any{"parent": mineID}).wantError(http.StatusForbidden)
		if after := count(); after != before {
			t.Errorf("refused creates changed the number of collections: %v → %v", before, after)
		}

		var data struct {
			CreateCollection struct {
				ID, Title    string
				Parent       *string
				DefaultLevel *string
				Permissions  struct{ Admin, Create bool }
				URLs         struct{ Location string }
			}
		}
		e.gql(creator.Token, `mutation($o: ID!, $p: ID!) { createCollection(organizationId: $o, input: {title: "Via GraphQL", parent: $p}) {
			id title parent defaultLevel permissions { admin create } urls { location } } }`, map[string]any{"o": o.id, "p": mineID}).ok(&data)
		if g := data.CreateCollection; g.Title != "Via GraphQL" || g.Parent == nil || *g.Parent != mineID || g.DefaultLevel == nil || *g.DefaultLevel != "INHERIT" ||
			!g.Permissions.Admin || g.URLs.Location != "https://bindery.test/v1/collections/"+g.ID {
			t.Errorf("GraphQL createCollection = %+v", g)
		}
		e.wantInvalid("long title", creator, `mutation($o: ID!) { createCollection(organizationId: $o, input: {title: "`+strings.Repeat("a", 51)+`"}) { id } }`, map[string]any{"o": o.id}, "title")
		e.wantRefusals(`mutation($o: ID!) { createCollection(organizationId: $o, input: {}) { id } }`,
			gqlRefusal{"reader createCollection", reader, map[string]any{"o": o.id}, "FORBIDDEN"})
	})
}

func TestListCollections(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		reader := e.member(o.id, "reader@acme.test", "read")
		guest := e.member(o.id, "guest@acme.test", "guest")
		a := o.collection("", "A")
		b := o.collection(a, "B")
		o.collection("", "C")
		o.collection(b, "D")
		closed := o.collection("", "E")
		o.level("/collections/"+closed, "null")
		o.collection(closed, "F")

		list := func(token, query string) collectionList {
			t.Helper()
			return getList[titled](e, token, "/orgs/"+o.id+"/collections"+query)
		}
		for _, tt := range []struct {
			name, query string
			who         account
			titles      string
		}{
			{"admin, all, newest first", "", o.admin, "F,E,D,C,B,A"},
			{"admin, nested=true", "?nested=true", o.admin, "F,E,D,C,B,A"},
			{"admin, top-level only", "?nested=false", o.admin, "E,C,A"},
			{"reader: a closed collection hides what inherits from it", "", reader, "D,C,B,A"},
			{"reader, top-level only", "?nested=false", reader, "C,A"},
			{"guest", "", guest, ""},
		} {
			l := list(tt.who.Token, tt.query)
			if l.labels() != tt.titles || l.Count != len(l.Items) {
				t.Errorf("%s: %q (count %d), want %q", tt.name, l.labels(), l.Count, tt.titles)
			}
		}
		// Pages of one, top-level only.
		pages := walkPages(t, "?nested=false&limit=1", func(q string) collectionList { return list(o.admin.Token, q) })
		if got := joinPages(pages); got != "E|C|A" || pages[0].Count != 3 {
			t.Errorf("pages = %v (count %d), want E|C|A (count 3)", got, pages[0].Count)
		}
		if msg := e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/collections?nested=maybe", nil).wantError(http.StatusBadRequest); !strings.HasPrefix(msg, "nested") {
			t.Errorf("nested=maybe message %q does not name nested", msg)
		}

		var data struct {
			Organization struct {
				Collections struct {
					TotalCount int
					Nodes      []struct {
						Title  string
						Parent *string
					}
				}
			}
		}
		e.gql(reader.Token, `query($o: ID!) { organization(id: $o) { collections(nested: false) { totalCount nodes { title parent } } } }`, map[string]any{"o": o.id}).ok(&data)
		if c := data.Organization.Collections; c.TotalCount != 2 || len(c.Nodes) != 2 || c.Nodes[0].Title != "C" || c.Nodes[1].Title != "A" || c.Nodes[0].Parent != nil {
			t.Errorf("GraphQL top-level collections = %+v", c)
		}
		e.gql(reader.Token, `query($o: ID!) { organization(id: $o) { collections { totalCount nodes { title parent } } } }`, map[string]any{"o": o.id}).ok(&data)
		if c := data.Organization.Collections; c.TotalCount != 4 || c.Nodes[0].Title != "D" || c.Nodes[0].Parent == nil || *c.Nodes[0].Parent != b {
			t.Errorf("GraphQL collections = %+v", c)
		}
	})
}

func TestUpdateCollection(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		editor := e.member(o.id, "editor@acme.test", "edit")
		creator := e.member(o.id, "creator@acme.test", "create")
		outsider := e.member("", "out@else.test", "")
		id := o.collection("", "Guides")
		path := "/collections/" + id
		get := func() []byte {
			t.Helper()
			return e.call(o.admin.Token, "GET", path, nil).want(http.StatusOK).Body
		}

		got := e.call(o.admin.Token, "PATCH", path, `{"title":"Team guides","description":"`+strings.Repeat("d", 100)+`","defaultLevel":"comment"}`).want(http.StatusOK)
		golden(t, "collection_updated", got.Body)
		if string(get()) != string(got.Body) {
			t.Errorf("GET after PATCH differs:\n%s\n%s", got.Body, get())
		}
		c := got.object()
		if c["title"] != "Team guides" || c["description"] != strings.Repeat("d", 100) || c["defaultLevel"] != "comment" {
			t.Errorf("after PATCH: %v", c)
		}
		// null clears the description and closes the collection; absent fields stay.
		c = e.call(o.admin.Token, "PATCH", path, `{"description":null,"defaultLevel":null}`).want(http.StatusOK).object()
		if _, has := c["description"]; has || c["title"] != "Team guides" {
			t.Errorf("after nulls: %v", c)
		}
		if lvl, present := c["defaultLevel"]; !present || lvl != nil {
			t.Errorf("defaultLevel after null = %v (present %v), want null", lvl, present)
		}
		o.wantCollectionRole(t, editor, "editor on a closed collection", id, "")
		e.call(o.admin.Token, "PATCH", path, `{"defaultLevel":"inherit"}`).want(http.StatusOK)

		wantUnchanged := e.snapshot(o.admin.Token, path)
		e.wantBadBodies(o.admin.Token, "PATCH", path,
			badBody{"title too long", `{"title":"` + strings.Repeat("a", 51) + `"}`, "title"},
			badBody{"title null", `{"title":null}`, "title"},
			badBody{"description too long", `{"description":"` + strings.Repeat("d", 101) + `"}`, "description"},
			badBody{"description not a string", `{"description":1}`, "description"},
			badBody{"unknown default level", `{"defaultLevel":"owner"}`, "defaultLevel"},
			badBody{"malformed JSON", `{"title"`, "body"},
			badBody{"no body", nil, "body"},
		)
		// Changing a collection needs admin on it: an editor of the organization reads it only.
		e.call(editor.Token, "PATCH", path, `{"title":"Mine"}`).wantError(http.StatusForbidden)
		e.call(outsider.Token, "PATCH", path, `{"title":"Mine"}`).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "PATCH", "/collections/nope", `{"title":"Mine"}`).wantError(http.StatusNotFound)
		wantUnchanged("rejected PATCHes")
		// The creator of a collection administers it.
		own := o.newCollection(creator.Token, `{"title":"Own"}`)["id"].(string)
		e.call(creator.Token, "PATCH", "/collections/"+own, `{"title":"Still mine","description":"Notes"}`).want(http.StatusOK)

		var data struct {
			UpdateCollection struct {
				Title        string
				Description  *string
				DefaultLevel *string
			}
		}
		e.gql(o.admin.Token, `mutation($id: ID!) { updateCollection(id: $id, input: {title: "Via GraphQL", description: "About", defaultLevel: READ}) { title description defaultLevel } }`,
			map[string]any{"id": id}).ok(&data)
		if u := data.UpdateCollection; u.Title != "Via GraphQL" || u.Description == nil || *u.Description != "About" || u.DefaultLevel == nil || *u.DefaultLevel != "READ" {
			t.Errorf("GraphQL updateCollection = %+v", u)
		}
		if got := e.call(editor.Token, "GET", path, nil).want(http.StatusOK).object(); got["title"] != "Via GraphQL" || got["defaultLevel"] != "read" {
			t.Errorf("REST after GraphQL update = %v", got)
		}
		e.wantInvalid("long description", o.admin, `mutation($id: ID!) { updateCollection(id: $id, input: {description: "`+strings.Repeat("d", 101)+`"}) { title } }`, map[string]any{"id": id}, "description")
		e.wantRefusals(`mutation($id: ID!) { updateCollection(id: $id, input: {title: "Mine"}) { title } }`,
			gqlRefusal{"editor updateCollection", editor, map[string]any{"id": id}, "FORBIDDEN"})
	})
}

func TestDeleteCollectionMovesItsContentUp(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		reader := e.member(o.id, "reader@acme.test", "read")
		outsider := e.member("", "out@else.test", "")
		// A ⊃ B ⊃ {s1, C ⊃ s2}
		a := o.collection("", "A")
		b := o.collection(a, "B")
		c := o.collection(b, "C")
		s1 := o.space(b, "s1")
		s2 := o.space(c, "s2")
		parentOf := func(kind, id string) any {
			t.Helper()
			return e.call(o.admin.Token, "GET", "/"+kind+"/"+id, nil).want(http.StatusOK).object()["parent"]
		}

		// Refusals change nothing.
		e.call(reader.Token, "DELETE", "/collections/"+b, nil).wantError(http.StatusForbidden)
		e.call(outsider.Token, "DELETE", "/collections/"+b, nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "GET", "/collections/"+b, nil).want(http.StatusOK)

		e.call(o.admin.Token, "DELETE", "/collections/"+b, nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "GET", "/collections/"+b, nil).wantError(http.StatusNotFound)
		if p := parentOf("spaces", s1); p != a {
			t.Errorf("space s1 parent after deleting B = %v, want A (%s)", p, a)
		}
		if p := parentOf("collections", c); p != a {
			t.Errorf("collection C parent after deleting B = %v, want A (%s)", p, a)
		}
		if p := parentOf("spaces", s2); p != c {
			t.Errorf("space s2 parent after deleting B = %v, want C (%s)", p, c)
		}
		var inA spaceList
		e.call(reader.Token, "GET", "/collections/"+a+"/spaces", nil).want(http.StatusOK).decode(&inA)
		if inA.labels() != "s1" {
			t.Errorf("spaces in A after deleting B = %q, want s1", inA.labels())
		}
		e.call(o.admin.Token, "DELETE", "/collections/"+b, nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", "/collections/doesnotexist", nil).want(http.StatusNoContent)

		// Deleting a top-level collection moves its content to the organization's root.
		var del struct{ DeleteCollection bool }
		if code := e.gql(reader.Token, `mutation($id: ID!) { deleteCollection(id: $id) }`, map[string]any{"id": a}).code(); code != "FORBIDDEN" {
			t.Errorf("GraphQL reader deleteCollection code = %q, want FORBIDDEN", code)
		}
		e.gql(o.admin.Token, `mutation($id: ID!) { deleteCollection(id: $id) }`, map[string]any{"id": a}).ok(&del)
		if !del.DeleteCollection {
			t.Error("GraphQL deleteCollection = false, want true")
		}
		e.gql(o.admin.Token, `mutation($id: ID!) { deleteCollection(id: $id) }`, map[string]any{"id": a}).ok(&del)
		if del.DeleteCollection {
			t.Error("GraphQL deleteCollection again = true, want false")
		}
		root := e.call(o.admin.Token, "GET", "/spaces/"+s1, nil).want(http.StatusOK).object()
		if _, has := root["parent"]; has || root["visibility"] != "private" {
			t.Errorf("s1 after deleting A: parent %v visibility %v, want no parent and private", root["parent"], root["visibility"])
		}
		if p := parentOf("collections", c); p != nil {
			t.Errorf("C after deleting A has parent %v, want none", p)
		}
		var top collectionList
		e.call(reader.Token, "GET", "/orgs/"+o.id+"/collections?nested=false", nil).want(http.StatusOK).decode(&top)
		if top.labels() != "C" {
			t.Errorf("top-level collections = %q, want C", top.labels())
		}
	})
}

func TestDeletingACollectionDropsItsGrants(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		reader := e.member(o.id, "reader@acme.test", "read")
		// The reader edits s through a grant on its collection; once the collection is gone, s
		// inherits the reader's organization role.
		col := o.collection("", "Granted")
		s := o.space(col, "s")
		o.grantUsers("/collections/"+col, "edit", reader)
		o.wantSpaceRole(t, reader, "through the collection grant", s, "edit")
		e.call(o.admin.Token, "DELETE", "/collections/"+col, nil).want(http.StatusNoContent)
		o.wantSpaceRole(t, reader, "after the collection is deleted", s, "read")
		// A collection created again is a new one: the old grant does not come back.
		again := o.collection("", "Granted")
		o.wantCollectionRole(t, reader, "new collection", again, "read")
	})
}

func TestCollectionSpaces(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		reader := e.member(o.id, "reader@acme.test", "read")
		outsider := e.member("", "out@else.test", "")
		col := o.collection("", "Guides")
		sub := o.collection(col, "Sub")
		o.space(col, "s1")
		closed := o.space(col, "s2")
		o.level("/spaces/"+closed, "null")
		o.space(sub, "s3")
		o.space("", "root")
		o.space(col, "s4")

		// Only the spaces directly in the collection that the caller can read, newest first.
		for _, tt := range []struct {
			name  string
			who   account
			limit int
			pages string
			count int
		}{
			{"admin", o.admin, 0, "s4,s2,s1", 3},
			{"admin, pages of 2", o.admin, 2, "s4,s2|s1", 3},
			{"reader", reader, 0, "s4,s1", 2},
		} {
			pages, count := o.listSpaces(tt.who.Token, "/collections/"+col+"/spaces", tt.limit)
			if got := strings.Join(pages, "|"); got != tt.pages || count != tt.count {
				t.Errorf("%s: pages %q count %d, want %q count %d", tt.name, got, count, tt.pages, tt.count)
			}
		}
		for _, it := range getList[titled](e, reader.Token, "/collections/"+col+"/spaces").Items {
			if it.Parent == nil || *it.Parent != col {
				t.Errorf("%s parent = %v, want %s", it.Title, it.Parent, col)
			}
		}
		e.call(outsider.Token, "GET", "/collections/"+col+"/spaces", nil).wantError(http.StatusNotFound)
		e.call(reader.Token, "GET", "/collections/nope/spaces", nil).wantError(http.StatusNotFound)
		e.call(reader.Token, "GET", "/collections/"+col+"/spaces?limit=5000", nil).wantError(http.StatusBadRequest)

		var data struct {
			Collection struct {
				Spaces struct {
					TotalCount int
					Nodes      []struct{ Title string }
				}
			}
		}
		e.gql(reader.Token, `query($id: ID!) { collection(id: $id) { spaces { totalCount nodes { title } } } }`, map[string]any{"id": col}).ok(&data)
		var titles []string
		for _, n := range data.Collection.Spaces.Nodes {
			titles = append(titles, n.Title)
		}
		if fmt.Sprint(titles) != "[s4 s1]" || data.Collection.Spaces.TotalCount != 2 {
			t.Errorf("GraphQL collection spaces = %v (%d), want [s4 s1] (2)", titles, data.Collection.Spaces.TotalCount)
		}
	})
}
