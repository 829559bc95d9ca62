package domain

import (
	"context"

	"github.com/bindery/bindery/domain/jobs"
)

// jobKinds are the functions that register Bindery's job kinds with a registry. Each domain adds
// its own from an init function in its own file, so domains never edit a shared list:
//
//	func init() {
//		addJobKinds(func(r *App, reg *jobs.Registry) { jobs.Add(reg, r.workGitSync) })
//	}
var jobKinds []func(r *App, reg *jobs.Registry)

// addJobKinds adds a domain's registration function (call it from init).
func addJobKinds(register func(r *App, reg *jobs.Registry)) {
	jobKinds = append(jobKinds, register)
}

// JobRegistry returns a registry holding every job kind, its workers bound to r. Each run gets a
// request state of its own, as a request does.
func (r *App) JobRegistry() *jobs.Registry {
	reg := jobs.NewRegistry()
	reg.Prepare(r.WithRequestState)
	for _, register := range jobKinds {
		register(r, reg)
	}
	return reg
}

// StartJobs starts working the durable job queue with every registered kind: serve calls it at
// start-up (jobs left queued by a previous run start then), and so does the test harness. Stop the
// returned Runner before closing the Store.
func (r *App) StartJobs(ctx context.Context, cfg jobs.Config) (*jobs.Runner, error) {
	return jobs.Start(ctx, r.Store, r.JobRegistry(), cfg)
}
