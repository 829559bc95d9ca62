package domain

import (
	"context"

	"github.com/bindery/bindery/domain/model"
)

// Node is the organization, collection, space or change request with this id, as the caller may
// read it; nil when there is none, or none the caller may read (not told apart). At most four
// lookups by primary key, whatever the id.
func (r *App) Node(ctx context.Context, id string) (model.Node, error) {
	if o, err := NilIfNotFound(r.OrganizationByID(ctx, id)); err != nil || o != nil {
		return nodeOf(o, err)
	}
	if c, err := NilIfNotFound(r.CollectionByID(ctx, id)); err != nil || c != nil {
		return nodeOf(c, err)
	}
	if s, err := NilIfNotFound(r.SpaceByID(ctx, id)); err != nil || s != nil {
		return nodeOf(s, err)
	}
	rows, err := r.Store.ChangeRequestsByIDs(ctx, []string{id})
	if err != nil {
		return nil, err
	}
	if row, ok := rows[id]; ok {
		return nodeOf(NilIfNotFound(r.ChangeRequestByID(ctx, row.SpaceID, id)))
	}
	return nil, nil
}

// nodeOf keeps a nil object a nil Node (not an interface holding a nil pointer).
func nodeOf[T any, P interface {
	*T
	model.Node
}](v P, err error) (model.Node, error) {
	if err != nil || v == nil {
		return nil, err
	}
	return v, nil
}
