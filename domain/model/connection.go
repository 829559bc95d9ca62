package model

// Connection is one page of a list in Relay's shape. REST's {items, count, next.page} is the same
// page: Nodes, TotalCount and PageInfo.EndCursor when PageInfo.HasNextPage.
type Connection[T any] struct {
	Edges      []*Edge[T] `json:"edges"`
	Nodes      []T        `json:"nodes"`
	PageInfo   PageInfo   `json:"pageInfo"`
	TotalCount int        `json:"totalCount"`
}

// Edge is one item of a Connection with its cursor.
type Edge[T any] struct {
	Cursor string `json:"cursor"`
	Node   T      `json:"node"`
}

// PageInfo tells whether another page follows and where it starts.
type PageInfo struct {
	HasNextPage bool    `json:"hasNextPage"`
	EndCursor   *string `json:"endCursor"`
}

// NewConnection builds a page from items, their cursors, the total count and whether more follow.
func NewConnection[T any](items []T, cursors []string, total int, hasMore bool) *Connection[T] {
	c := &Connection[T]{Nodes: items, TotalCount: total, Edges: make([]*Edge[T], len(items))}
	if c.Nodes == nil {
		c.Nodes = []T{}
	}
	for i, it := range items {
		c.Edges[i] = &Edge[T]{Cursor: cursors[i], Node: it}
	}
	if n := len(cursors); n > 0 {
		c.PageInfo.EndCursor = &cursors[n-1]
	}
	c.PageInfo.HasNextPage = hasMore
	return c
}

// The connections of the schema.
type (
	OrganizationConnection = Connection[*Organization]
	OrganizationEdge       = Edge[*Organization]
	MemberConnection       = Connection[*Member]
	MemberEdge             = Edge[*Member]
	InviteLinkConnection   = Connection[*InviteLink]
	InviteLinkEdge         = Edge[*InviteLink]
)
