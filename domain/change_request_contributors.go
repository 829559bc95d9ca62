package domain

import (
	"context"
	"errors"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// ChangeRequestContributorsByID lists the people who changed a change request: its author and
// its editors (actionType edit), then those who only commented (comment). Errors: NotFound.
func (r *App) ChangeRequestContributorsByID(ctx context.Context, spaceID, changeRequestID string) ([]*model.ChangeRequestContributor, error) {
	cr, err := r.ChangeRequestByID(ctx, spaceID, changeRequestID)
	if err != nil {
		return nil, err
	}
	return r.ChangeRequestContributors(ctx, cr)
}

// ChangeRequestContributors is ChangeRequestContributorsByID for a change request already read
// (and so already allowed): batched with its siblings, so a list of change requests asking for
// their contributors costs two statements whatever its size. Each edit is a revision of the
// change request recording its author; the author counts opening it as one edit.
func (r *App) ChangeRequestContributors(ctx context.Context, cr *model.ChangeRequest) ([]*model.ChangeRequestContributor, error) {
	l := loader.For(ctx, r.Store)
	rows, _, err := l.Contributors.Load(ctx, cr.ID)
	if err != nil {
		return nil, err
	}
	byUser := map[string]*model.ChangeRequestContributor{}
	var order []string
	add := func(userID, action string, count int, at time.Time) {
		c := byUser[userID]
		if c == nil {
			c = &model.ChangeRequestContributor{ActionType: action}
			byUser[userID] = c
			order = append(order, userID)
		}
		if action == "edit" && c.ActionType != "edit" {
			c.ActionType, c.Count = "edit", 0 // an editor who also commented counts as an editor
		}
		if action == c.ActionType {
			c.Count += count
		}
		if at.After(c.UpdatedAt) {
			c.UpdatedAt = at
		}
	}
	add(cr.CreatedByID, "edit", 1, cr.CreatedAt)
	for _, c := range rows {
		add(c.UserID, c.Action, c.Count, c.UpdatedAt)
	}
	users, errs := l.User.LoadEach(ctx, order)
	out := make([]*model.ChangeRequestContributor, 0, len(order))
	for i, id := range order {
		c := byUser[id]
		switch {
		case i < len(errs) && errs[i] != nil:
			if apperr.KindOf(errs[i]) != apperr.NotFound && !errors.Is(errs[i], storage.ErrNotFound) {
				return nil, errs[i]
			}
			c.User = r.formerMember(id)
		case id == cr.CreatedByID && cr.CreatedBy != nil:
			c.User = cr.CreatedBy
		default:
			c.User = r.toUser(users[i])
		}
		out = append(out, c)
	}
	return out, nil
}

// formerMember stands for a user whose account is gone.
func (r *App) formerMember(id string) *model.User {
	return &model.User{Object: "user", ID: id, DisplayName: "Former member", URLs: model.UserURLs{Location: r.apiURL("/users/%s", id)}}
}
