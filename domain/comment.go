package domain

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Discussion: comments and replies on a space or on one of its change requests. A discussion
// (storage.Thread) is the space's own or one change request's; a comment belongs to exactly one,
// and is found only through it.

// thread is a discussion the caller can read, with what decides their rights in it.
type thread struct {
	space *model.Space // carries the caller's role
	row   *storage.Space
	cr    *storage.ChangeRequest // nil for the space's own discussion
	key   storage.Thread
}

// revision is the revision comments posted now are made against.
func (t *thread) revision() string {
	if t.cr != nil {
		return t.cr.RevisionID
	}
	return t.row.RevisionID
}

// openThread finds a discussion the caller can read: the space's own when changeRequestID is
// empty. Errors: NotFound.
func (r *App) openThread(ctx context.Context, spaceID, changeRequestID string) (*thread, error) {
	sp, row, err := r.readableSpace(ctx, spaceID, false)
	if err != nil {
		return nil, err
	}
	t := &thread{space: sp, row: row, key: storage.Thread{SpaceID: row.ID}}
	if changeRequestID != "" {
		cr, err := r.Store.FindChangeRequest(ctx, row.ID, changeRequestID)
		if err != nil {
			return nil, notFound(err, "change request")
		}
		t.cr, t.key.ChangeRequestID = cr, cr.ID
	}
	return t, nil
}

// url is the API address of a comment (and of a reply when replyID is set).
func (r *App) commentURL(t storage.Thread, commentID, replyID string) string {
	u := r.apiURL("/spaces/%s", t.SpaceID)
	if t.ChangeRequestID != "" {
		u += "/change-requests/" + t.ChangeRequestID
	}
	u += "/comments/" + commentID
	if replyID != "" {
		u += "/replies/" + replyID
	}
	return u
}

// commentPermissions are the caller's rights on one comment: authors edit their own, anyone who
// may comment replies, authors and space admins delete.
func commentPermissions(role *model.MemberRole, viewerID, author string) model.CommentPermissions {
	comment := authz.AtLeast(role, model.MemberRoleComment)
	own := comment && viewerID == author
	return model.CommentPermissions{
		View: canRead(role), Edit: own, Reply: comment,
		Delete: own || authz.AtLeast(role, model.MemberRoleAdmin),
	}
}

// people loads users by id at once. Users the caller can no longer see (they left every shared
// organization) show as a former member rather than failing the whole list.
func (r *App) people(ctx context.Context, ids []string) (map[string]*model.User, error) {
	out := make(map[string]*model.User, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	users, errs := loader.For(ctx, r.Store).User.LoadEach(ctx, ids)
	for i, id := range ids {
		if len(errs) > i && errs[i] != nil {
			if apperr.KindOf(errs[i]) != apperr.NotFound {
				return nil, errs[i]
			}
			out[id] = &model.User{Object: "user", ID: id, DisplayName: "Former member", URLs: model.UserURLs{Location: r.apiURL("/users/%s", id)}}
			continue
		}
		out[id] = r.toUser(users[i])
	}
	return out, nil
}

// engagement is what lists show beside each comment: reactions and replies, loaded for all the
// listed comments at once, with every user they name.
type engagement struct {
	reactions map[string][]*storage.Reaction
	replies   map[string][]storage.ReplyAuthor
	users     map[string]*model.User
}

// loadEngagement reads the reactions on rows, who replied to rows (when withReplies), and every
// user the rows, reactions and replies name: three statements whatever the number of rows.
func (r *App) loadEngagement(ctx context.Context, rows []*storage.Comment, withReplies bool) (*engagement, error) {
	ids := make([]string, len(rows))
	var people []string
	for i, c := range rows {
		ids[i] = c.ID
		people = append(people, c.PostedBy)
		if c.ResolvedBy != nil {
			people = append(people, *c.ResolvedBy)
		}
	}
	l := loader.For(ctx, r.Store)
	e := &engagement{replies: map[string][]storage.ReplyAuthor{}}
	var err error
	if e.reactions, err = l.Reactions.LoadMany(ctx, ids); err != nil {
		return nil, err
	}
	if withReplies {
		if e.replies, err = l.ReplyAuthors.LoadMany(ctx, ids); err != nil {
			return nil, err
		}
	}
	for _, list := range e.reactions {
		for _, rc := range list {
			people = append(people, rc.UserID)
		}
	}
	for _, list := range e.replies {
		for _, ra := range list {
			people = append(people, ra.PostedBy)
		}
	}
	e.users, err = r.people(ctx, unique(people))
	return e, err
}

func unique(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := ids[:0:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// reactionsOf groups a comment's reactions by emoji, in the order each emoji was first given.
func (e *engagement) reactionsOf(commentID string) []*model.EmojiReaction {
	out := []*model.EmojiReaction{}
	byEmoji := map[string]*model.EmojiReaction{}
	for _, rc := range e.reactions[commentID] {
		er, ok := byEmoji[rc.Emoji]
		if !ok {
			er = &model.EmojiReaction{Emoji: rc.Emoji, Users: []*model.ReactionAuthor{}}
			byEmoji[rc.Emoji] = er
			out = append(out, er)
		}
		er.Count++
		er.Users = append(er.Users, &model.ReactionAuthor{User: e.users[rc.UserID], ReactedAt: rc.ReactedAt})
	}
	return out
}

// repliersOf counts a comment's replies by author, most recent replier first.
func (e *engagement) repliersOf(commentID string) (int, []*model.UserContributor) {
	replies := e.replies[commentID]
	out := []*model.UserContributor{}
	byUser := map[string]*model.UserContributor{}
	for i := len(replies) - 1; i >= 0; i-- { // newest first: the first seen is the latest
		ra := replies[i]
		uc, ok := byUser[ra.PostedBy]
		if !ok {
			uc = &model.UserContributor{UpdatedAt: ra.PostedAt, User: e.users[ra.PostedBy]}
			byUser[ra.PostedBy] = uc
			out = append(out, uc)
		}
		uc.Count++
	}
	return len(replies), out
}

// toComments converts a thread's comments for the caller, in the format asked (nil: as posted).
func (r *App) toComments(ctx context.Context, t *thread, rows []*storage.Comment, format *model.PageFormat) ([]*model.Comment, error) {
	e, err := r.loadEngagement(ctx, rows, true)
	if err != nil {
		return nil, err
	}
	if len(rows) > 1 && Wants(ctx, WantCommentReplies) {
		// Each comment will read its page of replies: let them leave in one batch.
		loader.For(ctx, r.Store).ReplyPages.Expect(len(rows))
	}
	viewer := authz.ActorFrom(ctx).UserID
	out := make([]*model.Comment, len(rows))
	for i, c := range rows {
		m := &model.Comment{
			Object: "comment", ID: c.ID, PostedBy: e.users[c.PostedBy], PostedAt: c.PostedAt, EditedAt: c.EditedAt,
			Reactions: e.reactionsOf(c.ID), Body: bodyIn(c, format), Target: commentTarget(c),
			URLs:        model.LocationURLs{Location: r.commentURL(t.key, c.ID, "")},
			Permissions: commentPermissions(t.space.ViewerRole, viewer, c.PostedBy),
			Status:      model.CommentStatus(c.Status), ResolvedAt: c.ResolvedAt,
			ViewerRole: t.space.ViewerRole,
		}
		m.Replies, m.Repliers = e.repliersOf(c.ID)
		if c.ResolvedBy != nil {
			m.ResolvedBy = e.users[*c.ResolvedBy]
		}
		out[i] = m
	}
	return out, nil
}

// toReplies converts replies to one comment for the caller.
func (r *App) toReplies(ctx context.Context, key storage.Thread, role *model.MemberRole, commentID string, rows []*storage.Comment, format *model.PageFormat) ([]*model.CommentReply, error) {
	e, err := r.loadEngagement(ctx, rows, false)
	if err != nil {
		return nil, err
	}
	viewer := authz.ActorFrom(ctx).UserID
	out := make([]*model.CommentReply, len(rows))
	for i, c := range rows {
		out[i] = &model.CommentReply{
			Object: "comment-reply", ID: c.ID, PostedBy: e.users[c.PostedBy], PostedAt: c.PostedAt, EditedAt: c.EditedAt,
			Reactions: e.reactionsOf(c.ID), Body: bodyIn(c, format),
			URLs:        model.LocationURLs{Location: r.commentURL(key, commentID, c.ID)},
			Permissions: commentPermissions(role, viewer, c.PostedBy),
			CommentID:   commentID,
		}
	}
	return out, nil
}

func commentTarget(c *storage.Comment) model.CommentTarget {
	out := model.CommentTarget{Space: c.SpaceID, Revision: c.RevisionID, ChangeRequest: c.ChangeRequestID, Review: c.ReviewID}
	if c.PageID != nil {
		out.Page = &model.IDRef{ID: *c.PageID}
	}
	if c.NodeID != nil {
		out.Node = &model.IDRef{ID: *c.NodeID}
	}
	if c.TableRecord != nil && c.TableDefinition != nil {
		out.TableCell = &model.TableCellTarget{Record: *c.TableRecord, Definition: *c.TableDefinition}
	}
	return out
}

// bodyIn shows a stored body in the format asked: markdown is converted to a document with the
// content converter; a document is shown as markdown by its text, block by block. Without a
// format the body is shown as it was posted, so nothing is lost.
func bodyIn(c *storage.Comment, format *model.PageFormat) model.CommentBody {
	switch {
	case c.BodyKind == storage.BodyEmpty:
		return model.CommentBody{}
	case c.BodyKind == storage.BodyMarkdown && format != nil && *format == model.PageFormatDocument:
		b, _ := json.Marshal(document.FromMarkdown(c.Body, nil))
		return model.CommentBody{Document: model.Document(b)}
	case c.BodyKind == storage.BodyMarkdown:
		md := c.Body
		return model.CommentBody{Markdown: &md}
	case format != nil && *format == model.PageFormatMarkdown:
		md := documentText(c.Body)
		return model.CommentBody{Markdown: &md}
	}
	return model.CommentBody{Document: model.Document(c.Body)}
}

// documentText is a document's text: its leaves joined, one paragraph per block.
func documentText(doc string) string {
	var root struct{ Nodes []any }
	if json.Unmarshal([]byte(doc), &root) != nil {
		return ""
	}
	var blocks []string
	for _, n := range root.Nodes {
		var b strings.Builder
		leafText(n, &b)
		if s := strings.TrimSpace(b.String()); s != "" {
			blocks = append(blocks, s)
		}
	}
	return strings.Join(blocks, "\n\n")
}

func leafText(n any, b *strings.Builder) {
	node, ok := n.(map[string]any)
	if !ok {
		return
	}
	if leaves, ok := node["leaves"].([]any); ok {
		for _, l := range leaves {
			if leaf, ok := l.(map[string]any); ok {
				s, _ := leaf["text"].(string)
				b.WriteString(s)
			}
		}
	}
	children, _ := node["nodes"].([]any)
	for i, c := range children {
		if i > 0 && isBlock(c) {
			b.WriteByte('\n')
		}
		leafText(c, b)
	}
}

func isBlock(n any) bool {
	node, ok := n.(map[string]any)
	return ok && node["object"] == "block"
}

// storeBody writes a posted body onto a comment row.
func storeBody(c *storage.Comment, b *model.CommentBody) {
	switch {
	case b.IsEmpty():
		c.BodyKind, c.Body = storage.BodyEmpty, ""
	case b.Markdown != nil:
		c.BodyKind, c.Body = storage.BodyMarkdown, *b.Markdown
	default:
		c.BodyKind, c.Body = storage.BodyDocument, string(b.Document)
	}
}

// commentFormat checks a format argument; nil shows bodies as posted. Errors: Invalid.
func commentFormat(format *model.PageFormat) error {
	if format != nil && !format.IsValid() {
		return errFormat()
	}
	return nil
}

// CommentListArgs are a comment list's filters.
type CommentListArgs struct {
	Order      *model.ListOrder
	Status     *model.CommentStatusFilter
	Format     *model.PageFormat
	TargetPage *string
	Authors    []string
}

// Comments pages through a discussion's comments, newest first unless ordered asc. Errors:
// Invalid, NotFound.
func (r *App) Comments(ctx context.Context, spaceID, changeRequestID string, args CommentListArgs, first *int, after *string) (*model.CommentConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	f, err := commentFilter(args)
	if err != nil {
		return nil, err
	}
	t, err := r.openThread(ctx, spaceID, changeRequestID)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.CommentPage(ctx, t.key, f, page)
	if err != nil {
		return nil, err
	}
	items, err := r.toComments(ctx, t, list.Items, args.Format)
	if err != nil {
		return nil, err
	}
	return model.NewConnection(items, list.Cursors, list.Total, list.HasMore), nil
}

func commentFilter(args CommentListArgs) (storage.CommentFilter, error) {
	var f storage.CommentFilter
	if args.Order != nil {
		if !args.Order.IsValid() {
			return f, apperr.Invalidf("order", `must be "asc" or "desc"`)
		}
		f.Ascending = *args.Order == model.ListOrderAsc
	}
	if args.Status != nil {
		if !args.Status.IsValid() {
			return f, apperr.Invalidf("status", `must be "all", "open" or "resolved"`)
		}
		if *args.Status != model.CommentFilterAll {
			f.Status = string(*args.Status)
		}
	}
	if err := commentFormat(args.Format); err != nil {
		return f, err
	}
	if len(args.Authors) > model.MaxPageSize {
		return f, apperr.Invalidf("authors", "at most %d users", model.MaxPageSize)
	}
	f.PageID, f.Authors = deref(args.TargetPage), args.Authors
	return f, nil
}

// CommentByID reads one comment of a discussion. Errors: Invalid, NotFound.
func (r *App) CommentByID(ctx context.Context, spaceID, changeRequestID, commentID string, format *model.PageFormat) (*model.Comment, error) {
	if err := commentFormat(format); err != nil {
		return nil, err
	}
	t, err := r.openThread(ctx, spaceID, changeRequestID)
	if err != nil {
		return nil, err
	}
	return r.commentIn(ctx, t, commentID, format)
}

func (r *App) commentIn(ctx context.Context, t *thread, commentID string, format *model.PageFormat) (*model.Comment, error) {
	c, err := r.Store.FindComment(ctx, t.key, commentID)
	if err != nil {
		return nil, notFound(err, "comment")
	}
	out, err := r.toComments(ctx, t, []*storage.Comment{c}, format)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// PostComment posts a comment in a discussion; the comment role is needed. An anchor must name
// a page of the discussion's current content. Errors: Invalid, NotFound, Forbidden.
func (r *App) PostComment(ctx context.Context, spaceID, changeRequestID string, in model.PostCommentInput, format *model.PageFormat) (*model.Comment, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if err := commentFormat(format); err != nil {
		return nil, err
	}
	t, err := r.openThread(ctx, spaceID, changeRequestID)
	if err != nil {
		return nil, err
	}
	if err := require(t.space.ViewerRole, model.MemberRoleComment, "space"); err != nil {
		return nil, err
	}
	if in.Page != nil {
		if _, err := r.Store.PageOf(ctx, t.view(), *in.Page); err != nil {
			return nil, pageAnchorErr(err, *in.Page)
		}
	}
	c := r.newComment(ctx, t, in.Body)
	c.PageID, c.NodeID = in.Page, in.Node
	if in.TableCell != nil {
		c.TableRecord, c.TableDefinition = &in.TableCell.Record, &in.TableCell.Definition
	}
	c.ID = storage.NewID()
	ctx = r.emit(ctx, commentEvent(EventCommentCreated, t, c), map[string]any{"page": c.PageID})
	if err := r.Store.CreateComment(ctx, c); err != nil {
		return nil, err
	}
	return r.commentIn(ctx, t, c.ID, format)
}

func pageAnchorErr(err error, pageID string) error {
	if apperr.KindOf(err) == apperr.NotFound {
		return apperr.Invalidf("page", "page %q is not in this content", pageID)
	}
	return err
}

// view is the content comments of the thread are anchored in now.
func (t *thread) view() storage.View {
	if t.cr != nil {
		return changeRequestView(t.cr)
	}
	return storage.View{SpaceID: t.row.ID, BaseSeq: t.row.RevisionSeq}
}

// newComment is an open comment by the caller in t, at its current revision.
func (r *App) newComment(ctx context.Context, t *thread, body *model.CommentBody) *storage.Comment {
	c := &storage.Comment{
		OrganizationID: t.row.OrganizationID, SpaceID: t.row.ID, RevisionID: t.revision(),
		PostedBy: authz.ActorFrom(ctx).UserID, PostedAt: r.Now(), Status: string(model.CommentOpen),
	}
	if t.cr != nil {
		c.ChangeRequestID = &t.cr.ID
	}
	storeBody(c, body)
	return c
}

// UpdateComment changes a comment: its body (its author only), whether it is resolved, and the
// caller's reactions (anyone who may comment). Errors: Invalid, NotFound, Forbidden.
func (r *App) UpdateComment(ctx context.Context, spaceID, changeRequestID, commentID string, in model.UpdateCommentInput, format *model.PageFormat) (*model.Comment, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if err := commentFormat(format); err != nil {
		return nil, err
	}
	t, err := r.openThread(ctx, spaceID, changeRequestID)
	if err != nil {
		return nil, err
	}
	c, err := r.Store.FindComment(ctx, t.key, commentID)
	if err != nil {
		return nil, notFound(err, "comment")
	}
	set, err := r.changeComment(ctx, t, c, in.Body, in.AddedReactions, in.RemovedReactions)
	if err != nil {
		return nil, err
	}
	if in.Resolved != nil {
		set |= r.resolve(ctx, c, *in.Resolved)
	}
	ctx = r.emit(ctx, commentEvent(EventCommentUpdated, t, c), nil)
	if err := r.Store.UpdateComment(ctx, c, set); err != nil {
		return nil, notFound(err, "comment")
	}
	return r.commentIn(ctx, t, c.ID, format)
}

// changeComment applies the changes a comment and a reply share: the body (only its author may
// change it) and the caller's reactions, written at once. It returns the fields left to write.
// Errors: Forbidden.
func (r *App) changeComment(ctx context.Context, t *thread, c *storage.Comment, body *model.CommentBody, added, removed []string) (storage.CommentField, error) {
	if err := require(t.space.ViewerRole, model.MemberRoleComment, "space"); err != nil {
		return 0, err
	}
	actor := authz.ActorFrom(ctx)
	var set storage.CommentField
	if body != nil {
		if c.PostedBy != actor.UserID {
			return 0, apperr.Forbiddenf("only its author can change what a comment says")
		}
		now := r.Now()
		storeBody(c, body)
		c.EditedAt = &now
		set |= storage.CommentBody
	}
	if len(added)+len(removed) > 0 {
		if err := r.Store.React(ctx, c.OrganizationID, c.ID, actor.UserID, unique(added), unique(removed), r.Now()); err != nil {
			return 0, err
		}
	}
	return set, nil
}

// resolve marks a comment resolved by the caller, or open again (clearing who resolved it and
// when). Resolving a resolved comment keeps who did it first. It returns the fields to write.
func (r *App) resolve(ctx context.Context, c *storage.Comment, resolved bool) storage.CommentField {
	switch {
	case resolved && c.Status != string(model.CommentResolved):
		now, by := r.Now(), authz.ActorFrom(ctx).UserID
		c.Status, c.ResolvedAt, c.ResolvedBy = string(model.CommentResolved), &now, &by
	case !resolved && c.Status != string(model.CommentOpen):
		c.Status, c.ResolvedAt, c.ResolvedBy = string(model.CommentOpen), nil, nil
	default:
		return 0
	}
	return storage.CommentStatus
}

// DeleteComment removes a comment with its replies: its author or a space admin may. A comment
// (or a space) the caller cannot see reports false, like a missing one. Errors: Forbidden.
func (r *App) DeleteComment(ctx context.Context, spaceID, changeRequestID, commentID string) (bool, error) {
	t, err := r.openThread(ctx, spaceID, changeRequestID)
	if apperr.KindOf(err) == apperr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	c, err := r.Store.FindComment(ctx, t.key, commentID)
	if err != nil {
		return false, ignoreNotFound(err)
	}
	return r.deleteOwn(ctx, t, c)
}

// deleteOwn removes a comment or reply if the caller may. Errors: Forbidden.
func (r *App) deleteOwn(ctx context.Context, t *thread, c *storage.Comment) (bool, error) {
	if !commentPermissions(t.space.ViewerRole, authz.ActorFrom(ctx).UserID, c.PostedBy).Delete {
		return false, apperr.Forbiddenf("only its author or an admin of the space can delete it")
	}
	ctx = r.emit(ctx, commentEvent(EventCommentDeleted, t, c), nil)
	return true, r.Store.DeleteComment(ctx, c.ID)
}

func ignoreNotFound(err error) error {
	if apperr.KindOf(err) == apperr.NotFound {
		return nil
	}
	return err
}

// Commenters lists the members who wrote a comment or a reply in a discussion. Errors: Invalid,
// NotFound.
func (r *App) Commenters(ctx context.Context, spaceID, changeRequestID string, first *int, after *string) (*model.MemberConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	t, err := r.openThread(ctx, spaceID, changeRequestID)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.FindMembers(ctx, t.row.OrganizationID, storage.MemberFilter{CommentersOf: &t.key}, page)
	if err != nil {
		return nil, err
	}
	c := connectionOf(list, r.toMember)
	return c, r.fillMemberCounts(ctx, t.row.OrganizationID, c.Nodes)
}
