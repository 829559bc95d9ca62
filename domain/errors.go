package domain

import (
	"errors"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// invalidPageSize names GraphQL's argument: REST checks its own "limit" before calling resolvers.
var invalidPageSize = apperr.Invalidf("first", "must be a number from 0 to %d (0 means the default, %d)", model.MaxPageSize, model.DefaultPageSize)

// notFound turns storage's not-found into a message that names what is missing, and passes other
// errors through.
func notFound(err error, what string) error {
	if errors.Is(err, storage.ErrNotFound) {
		return apperr.NotFoundf("%s not found", what)
	}
	return err
}
