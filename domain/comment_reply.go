package domain

import (
	"context"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Replies answer a comment. They live in the comment's discussion and follow its rights:
// anyone who may comment replies, authors edit their own, authors and space admins delete.

// commentOf finds a comment of a discussion the caller can read. Errors: NotFound.
func (r *App) commentOf(ctx context.Context, spaceID, changeRequestID, commentID string) (*thread, *storage.Comment, error) {
	t, err := r.openThread(ctx, spaceID, changeRequestID)
	if err != nil {
		return nil, nil, err
	}
	c, err := r.Store.FindComment(ctx, t.key, commentID)
	if err != nil {
		return nil, nil, notFound(err, "comment")
	}
	return t, c, nil
}

// CommentReplies pages through a comment's replies, oldest first. Errors: Invalid, NotFound.
func (r *App) CommentReplies(ctx context.Context, spaceID, changeRequestID, commentID string, format *model.PageFormat, first *int, after *string) (*model.CommentReplyConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	if err := commentFormat(format); err != nil {
		return nil, err
	}
	t, c, err := r.commentOf(ctx, spaceID, changeRequestID, commentID)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.ReplyPage(ctx, c.ID, page)
	if err != nil {
		return nil, err
	}
	items, err := r.toReplies(ctx, t.key, t.space.ViewerRole, c.ID, list.Items, format)
	if err != nil {
		return nil, err
	}
	return model.NewConnection(items, list.Cursors, list.Total, list.HasMore), nil
}

// ReplyList pages through the replies of a comment the caller has read: in a list of comments,
// every comment's page leaves in one batch (loader.ReplyPages), and the comment's own
// authorization is not read again. Errors: Invalid, NotFound.
func (r *App) ReplyList(ctx context.Context, c *model.Comment, format *model.PageFormat, first *int, after *string) (*model.CommentReplyConnection, error) {
	if c.ViewerRole == nil { // not read through toComments: check it all
		return r.CommentReplies(ctx, c.Target.Space, deref(c.Target.ChangeRequest), c.ID, format, first, after)
	}
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	if err := commentFormat(format); err != nil {
		return nil, err
	}
	page.NoTotal = true // the comment counted its replies already
	list, _, err := loader.For(ctx, r.Store).ReplyPages.Load(ctx, loader.PageKey{Parent: c.ID, Window: page})
	if err != nil {
		return nil, err
	}
	key := storage.Thread{SpaceID: c.Target.Space, ChangeRequestID: deref(c.Target.ChangeRequest)}
	items, err := r.toReplies(ctx, key, c.ViewerRole, c.ID, list.Items, format)
	if err != nil {
		return nil, err
	}
	return model.NewConnection(items, list.Cursors, c.Replies, list.HasMore), nil
}

// CommentReplyByID reads one reply. Errors: Invalid, NotFound.
func (r *App) CommentReplyByID(ctx context.Context, spaceID, changeRequestID, commentID, replyID string, format *model.PageFormat) (*model.CommentReply, error) {
	if err := commentFormat(format); err != nil {
		return nil, err
	}
	t, c, err := r.commentOf(ctx, spaceID, changeRequestID, commentID)
	if err != nil {
		return nil, err
	}
	return r.replyIn(ctx, t, c.ID, replyID, format)
}

func (r *App) replyIn(ctx context.Context, t *thread, commentID, replyID string, format *model.PageFormat) (*model.CommentReply, error) {
	reply, err := r.Store.FindReply(ctx, commentID, replyID)
	if err != nil {
		return nil, notFound(err, "reply")
	}
	out, err := r.toReplies(ctx, t.key, t.space.ViewerRole, commentID, []*storage.Comment{reply}, format)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// PostCommentReply answers a comment; the comment role is needed. Errors: Invalid, NotFound,
// Forbidden.
func (r *App) PostCommentReply(ctx context.Context, spaceID, changeRequestID, commentID string, in model.PostCommentReplyInput, format *model.PageFormat) (*model.CommentReply, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if err := commentFormat(format); err != nil {
		return nil, err
	}
	t, c, err := r.commentOf(ctx, spaceID, changeRequestID, commentID)
	if err != nil {
		return nil, err
	}
	if err := require(t.space.ViewerRole, model.MemberRoleComment, "space"); err != nil {
		return nil, err
	}
	reply := r.newComment(ctx, t, in.Body)
	reply.ParentID, reply.RevisionID = &c.ID, c.RevisionID
	reply.ID = storage.NewID()
	ctx = r.emit(ctx, commentEvent(EventCommentReplyCreated, t, reply), nil)
	if err := r.Store.CreateComment(ctx, reply); err != nil {
		return nil, err
	}
	return r.replyIn(ctx, t, c.ID, reply.ID, format)
}

// UpdateCommentReply changes a reply's body (its author only) and the caller's reactions.
// Errors: Invalid, NotFound, Forbidden.
func (r *App) UpdateCommentReply(ctx context.Context, spaceID, changeRequestID, commentID, replyID string, in model.UpdateCommentReplyInput, format *model.PageFormat) (*model.CommentReply, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if err := commentFormat(format); err != nil {
		return nil, err
	}
	t, c, err := r.commentOf(ctx, spaceID, changeRequestID, commentID)
	if err != nil {
		return nil, err
	}
	reply, err := r.Store.FindReply(ctx, c.ID, replyID)
	if err != nil {
		return nil, notFound(err, "reply")
	}
	set, err := r.changeComment(ctx, t, reply, in.Body, in.AddedReactions, in.RemovedReactions)
	if err != nil {
		return nil, err
	}
	ctx = r.emit(ctx, commentEvent(EventCommentReplyUpdated, t, reply), nil)
	if err := r.Store.UpdateComment(ctx, reply, set); err != nil {
		return nil, notFound(err, "reply")
	}
	return r.replyIn(ctx, t, c.ID, reply.ID, format)
}

// DeleteCommentReply removes a reply: its author or a space admin may. A reply the caller cannot
// see reports false, like a missing one. Errors: Forbidden.
func (r *App) DeleteCommentReply(ctx context.Context, spaceID, changeRequestID, commentID, replyID string) (bool, error) {
	t, c, err := r.commentOf(ctx, spaceID, changeRequestID, commentID)
	if apperr.KindOf(err) == apperr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	reply, err := r.Store.FindReply(ctx, c.ID, replyID)
	if err != nil {
		return false, ignoreNotFound(err)
	}
	return r.deleteOwn(ctx, t, reply)
}
