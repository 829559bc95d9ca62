package rest_test

// The permission matrix rows of search: a space's search is read like its content; an
// organization's search is open to every member (guests find only what they were given).

func init() { matrix = append(matrix, searchMatrix()...) }

func searchMatrix() []matrixCase {
	return []matrixCase{
		{"GET", "/spaces/{spaceId}/search", contentReader, 200, space("/search?query=hello"), "",
			`query($s: ID!) { space(id: $s) { search(query: "hello") { totalCount } } }`},
		{"GET", "/orgs/{organizationId}/search", member, 200, org("/search?query=hello"), "",
			`query($o: ID!) { organization(id: $o) { search(query: "hello") { totalCount } } }`},
	}
}
