package model

// Template is content to start from: a built-in one, or a space its organization marked as a
// template.
type Template struct {
	ID           string   `json:"id"`
	Title        string   `json:"title"`
	Description  string   `json:"description"`
	Source       string   `json:"source"` // built-in or space
	Placeholders []string `json:"placeholders"`
}

// ApplyTemplateInput applies a template to a space, or into one of its change requests;
// params.contentRefs bind the template's file placeholders.
type ApplyTemplateInput struct {
	ID              string          `json:"id"`
	Params          *TemplateParams `json:"params"`
	ChangeRequestID *string         `json:"changeRequestId"`
}

// TemplateParams are an applied template's parameters.
type TemplateParams struct {
	ContentRefs map[string]JSON `json:"contentRefs"`
}

// ContentRefs are the bindings given, if any.
func (in ApplyTemplateInput) ContentRefs() map[string]JSON {
	if in.Params == nil {
		return nil
	}
	return in.Params.ContentRefs
}
