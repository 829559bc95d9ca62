package model

// CustomFont is the contract's CustomizationFontDefinition: an organization's font family and
// its faces, each with the URL its file is served at.
type CustomFont struct {
	ID          string                `json:"id"`
	Custom      bool                  `json:"custom"`
	FontFamily  string                `json:"fontFamily"`
	FontFaces   []*CustomFontFace     `json:"fontFaces"`
	Permissions CustomFontPermissions `json:"permissions"`
}

// CustomFontFace is the contract's FontFace: a weight and its file.
type CustomFontFace struct {
	Weight  int                 `json:"weight"`
	Sources []*CustomFontSource `json:"sources"`
}

// CustomFontSource is the contract's FontSource. Format is woff2 or woff (the contract's
// enumeration); a TrueType or OpenType file has none.
type CustomFontSource struct {
	URL    string  `json:"url"`
	Format *string `json:"format,omitempty"`
}

// CustomFontPermissions is what the caller may do with a font.
type CustomFontPermissions struct {
	Edit bool `json:"edit"`
}

// CustomFontConnection is a page of fonts.
type CustomFontConnection = Connection[*CustomFont]

// CustomFontInput creates a font, or changes one (fields left out are kept; a face whose
// storageKey is null is removed).
type CustomFontInput struct {
	FontFamily *string                `json:"fontFamily"`
	FontFaces  []*CustomFontFaceInput `json:"fontFaces"`
}

// CustomFontFaceInput is a weight and the key of the uploaded file that draws it.
type CustomFontFaceInput struct {
	Weight     int     `json:"weight"`
	StorageKey *string `json:"storageKey"`
}

// StorageUploadInput asks for a signed upload URL (generateStorageUploadURL).
type StorageUploadInput struct {
	File *StorageFileMetadata `json:"file"`
	Kind *string              `json:"kind"`
}

// StorageFileMetadata describes the file to upload: its name, media type and size in bytes.
type StorageFileMetadata struct {
	Name string  `json:"name"`
	Type string  `json:"type"`
	Size float64 `json:"size"`
}

// StorageUploadURL is where to PUT the file's bytes, and the key that names the file once
// uploaded.
type StorageUploadURL struct {
	Object string `json:"object"`
	URL    string `json:"url"`
	Key    string `json:"key"`
}

// CustomFontEdge is an edge of a CustomFontConnection.
type CustomFontEdge = Edge[*CustomFont]
