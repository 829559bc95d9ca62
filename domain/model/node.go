package model

// Node is what GraphQL's Node interface binds to: an object with a stable, opaque id that
// node(id:) finds again (docs/app.md). Ids are unique across kinds.
type Node interface{ IsNode() }

func (*Organization) IsNode()  {}
func (*Collection) IsNode()    {}
func (*Space) IsNode()         {}
func (*ChangeRequest) IsNode() {}
