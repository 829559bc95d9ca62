package model

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/apperr"
)

// TranslationStatus is where a translation stands: pending (never run), running, completed.
type TranslationStatus string

// The statuses of a translation (the contract's TranslationStatus).
const (
	TranslationStatusPending   TranslationStatus = "pending"
	TranslationStatusRunning   TranslationStatus = "running"
	TranslationStatusCompleted TranslationStatus = "completed"
)

var translationStatuses = []TranslationStatus{TranslationStatusPending, TranslationStatusRunning, TranslationStatusCompleted}

func (e TranslationStatus) IsValid() bool          { return slices.Contains(translationStatuses, e) }
func (e TranslationStatus) MarshalGQL(w io.Writer) { marshalEnum(w, e) }
func (e *TranslationStatus) UnmarshalGQL(v any) error {
	return unmarshalEnum(v, translationStatuses, e)
}

// TranslationRunStatus is where one run stands (GraphQL only).
type TranslationRunStatus string

// The statuses of a run.
const (
	TranslationRunQueued    TranslationRunStatus = "queued"
	TranslationRunRunning   TranslationRunStatus = "running"
	TranslationRunCompleted TranslationRunStatus = "completed"
	TranslationRunFailed    TranslationRunStatus = "failed"
)

var translationRunStatuses = []TranslationRunStatus{TranslationRunQueued, TranslationRunRunning, TranslationRunCompleted, TranslationRunFailed}

func (e TranslationRunStatus) IsValid() bool          { return slices.Contains(translationRunStatuses, e) }
func (e TranslationRunStatus) MarshalGQL(w io.Writer) { marshalEnum(w, e) }
func (e *TranslationRunStatus) UnmarshalGQL(v any) error {
	return unmarshalEnum(v, translationRunStatuses, e)
}

// Translation is the contract's Translation.
type Translation struct {
	Object       string                 `json:"object"`
	ID           string                 `json:"id"`
	Status       TranslationStatus      `json:"status"`
	Source       TranslationSource      `json:"source"`
	Language     Language               `json:"language"`
	Instructions Document               `json:"instructions"`
	Result       *TranslationResult     `json:"result,omitempty"`
	CreatedAt    time.Time              `json:"createdAt"`
	UpdatedAt    time.Time              `json:"updatedAt"`
	Stats        TranslationStats       `json:"stats"`
	Permissions  TranslationPermissions `json:"permissions"`
	URLs         LocationURLs           `json:"urls"`

	OrganizationID string `json:"-"`
	// PrefetchedRuns are the runs, newest first, when a list read them for all its items.
	PrefetchedRuns []*TranslationRun `json:"-"`
}

// TranslationSource is the space a translation reads and its language.
type TranslationSource struct {
	Space    string   `json:"space"`
	Language Language `json:"language"`
}

// TranslationResult is the space a translation writes and its latest translated revision.
type TranslationResult struct {
	Space    string `json:"space"`
	Revision string `json:"revision"`
}

// TranslationStats are a translation's counters; durations in milliseconds.
type TranslationStats struct {
	Runs              int `json:"runs"`
	TotalWords        int `json:"totalWords"`
	TotalPages        int `json:"totalPages"`
	TotalDuration     int `json:"totalDuration"`
	LatestRunDuration int `json:"latestRunDuration"`
	LatestPages       int `json:"latestPages"`
	LatestWords       int `json:"latestWords"`
}

// TranslationPermissions are what the caller may do with a translation.
type TranslationPermissions struct {
	View bool `json:"view"`
	Edit bool `json:"edit"`
}

// TranslationRun is one run of a translation, with its progress (0–100) and outcome.
type TranslationRun struct {
	ID             string               `json:"id"`
	Status         TranslationRunStatus `json:"status"`
	Progress       int                  `json:"progress"`
	PagesTotal     int                  `json:"pagesTotal"`
	PagesSent      int                  `json:"pagesSent"`
	PagesReused    int                  `json:"pagesReused"`
	Words          int                  `json:"words"`
	Failure        *string              `json:"failure,omitempty"`
	Issues         []*TranslationIssue  `json:"issues"`
	SourceRevision *string              `json:"sourceRevision,omitempty"`
	ResultRevision *string              `json:"resultRevision,omitempty"`
	CreatedAt      time.Time            `json:"createdAt"`
	StartedAt      *time.Time           `json:"startedAt,omitempty"`
	FinishedAt     *time.Time           `json:"finishedAt,omitempty"`
}

// TranslationIssue is something a run noticed about one page: glossary terms missing from its
// translation ("glossary"), or text kept untranslated because the translation would have changed
// the page's structure ("structure").
type TranslationIssue struct {
	Page    string   `json:"page"`
	Kind    string   `json:"kind"`
	Message string   `json:"message"`
	Terms   []string `json:"terms,omitempty"`
}

// The connections of translations.
type (
	TranslationConnection    = Connection[*Translation]
	TranslationEdge          = Edge[*Translation]
	TranslationRunConnection = Connection[*TranslationRun]
	TranslationRunEdge       = Edge[*TranslationRun]
	GlossaryEntryConnection  = Connection[*GlossaryEntry]
	GlossaryEntryEdge        = Edge[*GlossaryEntry]
)

// TranslationSourceInput names the space to translate and its language.
type TranslationSourceInput struct {
	Space    string   `json:"space"`
	Language Language `json:"language"`
}

// CreateTranslationInput is the body of createTranslation.
type CreateTranslationInput struct {
	Source       *TranslationSourceInput `json:"source"`
	Language     Language                `json:"language"`
	Instructions *Document               `json:"instructions"`
}

// Validate checks the input against the contract. Errors: Invalid naming the field.
func (in *CreateTranslationInput) Validate() error {
	if in.Source == nil {
		return apperr.Invalidf("source", "is required")
	}
	if in.Source.Space == "" {
		return apperr.Invalidf("source.space", "is required")
	}
	if !in.Source.Language.IsValid() {
		return apperr.Invalidf("source.language", "%q is not a supported language", in.Source.Language)
	}
	if in.Language == "" {
		return apperr.Invalidf("language", "is required")
	}
	if !in.Language.IsValid() {
		return apperr.Invalidf("language", "%q is not a supported language", in.Language)
	}
	if in.Language == in.Source.Language {
		return apperr.Invalidf("language", "must differ from the source's language")
	}
	if in.Instructions != nil {
		return in.Instructions.Validate("instructions")
	}
	return nil
}

// UpdateTranslationInput is the body of updateTranslation.
type UpdateTranslationInput struct {
	Instructions Document `json:"instructions"`
}

// Validate checks the instructions. Errors: Invalid.
func (in *UpdateTranslationInput) Validate() error { return in.Instructions.Validate("instructions") }

// GlossaryTranslations maps a language code to a term in that language.
type GlossaryTranslations map[string]string

// MarshalGQL writes the map as a JSON object.
func (g GlossaryTranslations) MarshalGQL(w io.Writer) {
	b, _ := json.Marshal(map[string]string(g))
	w.Write(b) //nolint:errcheck // gqlgen's writer API has no error path
}

// UnmarshalGQL reads a JSON object of strings.
func (g *GlossaryTranslations) UnmarshalGQL(v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("must be an object mapping language codes to terms")
	}
	out := GlossaryTranslations{}
	for k, x := range m {
		s, ok := x.(string)
		if !ok {
			return fmt.Errorf("the term for %q must be a string", k)
		}
		out[k] = s
	}
	*g = out
	return nil
}

// Validate checks codes and terms (1..255 characters, no line break). Errors: Invalid.
func (g GlossaryTranslations) Validate(field string) error {
	if len(g) == 0 {
		return apperr.Invalidf(field, "must give at least one term")
	}
	codes := make([]string, 0, len(g))
	for k := range g {
		codes = append(codes, k)
	}
	sort.Strings(codes)
	for _, k := range codes {
		v := g[k]
		if !Language(k).IsValid() {
			return apperr.Invalidf(field+"."+k, "%q is not a supported language", k)
		}
		if n := len([]rune(v)); n < 1 || n > 255 || strings.ContainsAny(v, "\r\n") {
			return apperr.Invalidf(field+"."+k, "must be 1 to 255 characters on one line")
		}
	}
	return nil
}

// GlossaryEntry is the contract's GlossaryEntry.
type GlossaryEntry struct {
	Object       string               `json:"object"`
	ID           string               `json:"id"`
	Translations GlossaryTranslations `json:"translations"`
	CreatedAt    time.Time            `json:"createdAt"`
	UpdatedAt    time.Time            `json:"updatedAt"`
	URLs         LocationURLs         `json:"urls"`
}

// GlossaryOperationType is a glossary batch operation's type.
type GlossaryOperationType string

// The operation types of updateGlossaryEntries.
const (
	GlossaryInsert GlossaryOperationType = "insert"
	GlossaryUpdate GlossaryOperationType = "update"
	GlossaryDelete GlossaryOperationType = "delete"
)

var glossaryOperationTypes = []GlossaryOperationType{GlossaryInsert, GlossaryUpdate, GlossaryDelete}

func (e GlossaryOperationType) IsValid() bool          { return slices.Contains(glossaryOperationTypes, e) }
func (e GlossaryOperationType) MarshalGQL(w io.Writer) { marshalEnum(w, e) }
func (e *GlossaryOperationType) UnmarshalGQL(v any) error {
	return unmarshalEnum(v, glossaryOperationTypes, e)
}

// GlossaryOperationInput is one operation of a glossary batch.
type GlossaryOperationInput struct {
	Type         GlossaryOperationType `json:"type"`
	ID           *string               `json:"id"`
	Translations GlossaryTranslations  `json:"translations"`
}

// UpdateGlossaryInput is the body of updateGlossaryEntries.
type UpdateGlossaryInput struct {
	Operations []*GlossaryOperationInput `json:"operations"`
}

// MaxGlossaryOperations bounds one batch.
const MaxGlossaryOperations = 1000

// Validate checks every operation before anything is written. Errors: Invalid naming the field.
func (in *UpdateGlossaryInput) Validate() error {
	if in.Operations == nil {
		return apperr.Invalidf("operations", "is required")
	}
	if len(in.Operations) > MaxGlossaryOperations {
		return apperr.Invalidf("operations", "at most %d operations at once", MaxGlossaryOperations)
	}
	for i, op := range in.Operations {
		field := fmt.Sprintf("operations[%d]", i)
		if op == nil {
			return apperr.Invalidf(field, "must be an operation object")
		}
		switch op.Type {
		case GlossaryInsert:
			if op.ID != nil {
				return apperr.Invalidf(field+".id", "an insert takes no id")
			}
			if err := op.Translations.Validate(field + ".translations"); err != nil {
				return err
			}
		case GlossaryUpdate:
			if op.ID == nil || *op.ID == "" {
				return apperr.Invalidf(field+".id", "is required")
			}
			if err := op.Translations.Validate(field + ".translations"); err != nil {
				return err
			}
		case GlossaryDelete:
			if op.ID == nil || *op.ID == "" {
				return apperr.Invalidf(field+".id", "is required")
			}
			if op.Translations != nil {
				return apperr.Invalidf(field+".translations", "a delete takes no translations")
			}
		case "":
			return apperr.Invalidf(field+".type", "is required")
		default:
			return apperr.Invalidf(field+".type", "unknown operation type %q (insert, update or delete)", op.Type)
		}
	}
	return nil
}
