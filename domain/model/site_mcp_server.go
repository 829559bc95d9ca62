package model

import (
	"bytes"
	"encoding/json"
	"sort"
)

// SiteMcpServer is an external MCP server a site's Ask may call as tools. Header values are
// never shown: each reads as SiteMcpServerHeaderMask.
type SiteMcpServer struct {
	Object  string               `json:"object"`
	ID      string               `json:"id"`
	Name    string               `json:"name"`
	URL     string               `json:"url"`
	Headers SiteMcpServerHeaders `json:"headers"`
	URLs    SiteMcpServerURLs    `json:"urls"`
}

// SiteMcpServerURLs are the URLs of a site MCP server.
type SiteMcpServerURLs struct {
	Location string `json:"location"`
}

// SiteMcpServerHeaderMask stands for a stored header value in every answer. Sent back in an
// update, it keeps the value stored under the same name.
const SiteMcpServerHeaderMask = "********"

// SiteMcpServerHeader is one HTTP header sent to an MCP server.
type SiteMcpServerHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// SiteMcpServerHeaders are the headers of an MCP server, sorted by name. Their JSON form is the
// contract's object of names to values; GraphQL lists them. A nil list is "not given".
type SiteMcpServerHeaders []*SiteMcpServerHeader

// MarshalJSON writes the headers as an object.
func (h SiteMcpServerHeaders) MarshalJSON() ([]byte, error) {
	m := make(map[string]string, len(h))
	for _, x := range h {
		m[x.Name] = x.Value
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads an object of names to values (null reads as "not given").
func (h *SiteMcpServerHeaders) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*h = nil
		return nil
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	out := SiteMcpServerHeaders{}
	for k, v := range m {
		out = append(out, &SiteMcpServerHeader{Name: k, Value: v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	*h = out
	return nil
}

// SiteMcpServerInput creates an MCP server (all fields) or changes one (any). Headers, when
// given, replace the stored ones.
type SiteMcpServerInput struct {
	Name    *string              `json:"name"`
	URL     *string              `json:"url"`
	Headers SiteMcpServerHeaders `json:"headers"`
}

// SiteMcpServerConnection is a page of a site's MCP servers.
type SiteMcpServerConnection = Connection[*SiteMcpServer]

// SiteMcpServerEdge is an edge of a SiteMcpServerConnection.
type SiteMcpServerEdge = Edge[*SiteMcpServer]

// SetHeaders sets the headers given in GraphQL, sorted by name (null: not given).
func (in *SiteMcpServerInput) SetHeaders(list []*SiteMcpServerHeader) error {
	if list == nil {
		return nil
	}
	in.Headers = append(SiteMcpServerHeaders{}, list...)
	sort.Slice(in.Headers, func(i, j int) bool { return in.Headers[i].Name < in.Headers[j].Name })
	return nil
}
