// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one way a job's independent trials leave this engine (FORMAT.md "Fan-out on a Ray
// cluster"): a job builds its sub-requests (each a complete request of an existing kind, e.g. a
// quantize of one scheme) and, with `ray` in its request, runOnRay() runs each as a Ray task in a
// fresh engine on a worker node (core/python/aotstudio_frontend/fanout.py); what each wrote comes
// back into the job folder. Without `ray` the job runs them here, one after another, as it always did.

#include "pipeline/job.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace AotStudio::Pipeline {

/// One independent piece of a job.
struct SubRequest {
    Protocol::Json fields; ///< what names it on its events, e.g. {"scheme": "int8-dynamic"}
    Protocol::Json request; ///< a complete engine request; its `out` is chosen where it runs
    std::string collect; ///< the folder under that `out` that comes back ("" for all of it)
    std::filesystem::path target; ///< where that folder lands here (replacing what was there)
    /// Local files and folders (absolute) the task needs and a worker may not see: packed once
    /// for all tasks of the call, put in Ray's object store once, unpacked in the task's folder on
    /// the worker; the request's strings naming them (or paths under them) are rewritten to that
    /// place, and the result's back. Paths of one folder land in one folder (a package stays
    /// beside its result.json). More than 2 GiB in all fails the job (bad_request) before any
    /// task starts.
    std::vector<std::filesystem::path> send;
};

/// How one sub-request ended.
struct SubOutcome {
    Protocol::Json result; ///< its result, paths rewritten to `target`; null on error
    std::optional<Protocol::Error> error; ///< why there is no result
    Protocol::Json origin; ///< where it ran: {"host", "device_name", "node"}
    double seconds = 0; ///< from its submission to its end, as seen here (queueing and transfers included)
};

/// The `ray` field of a request: the head's HOST:PORT, or empty (run here). Throws JobFailed
/// (bad_request) when it is present but not a string.
std::string rayAddress(const Protocol::Json &request);

/// A model spec as a Ray worker must read it: a factory file (`FILE.py:NAME`) or a saved program
/// (`FILE.pt2`) given relative to this engine's folder, and there, by absolute path (a task runs in
/// a folder of its own); any other spec (`sample:mlp`, `hf:...`) as it is.
std::string absoluteModelSpec(const std::string &spec);

/// This engine as the origin of a measurement: {"host": this host's name, "device_name": the
/// name of `device` ("cpu"|"cuda") in the handshake, "node": null}. Rows of a job carry their
/// origin so that no ratio mixes two hosts.
Protocol::Json localOrigin(const std::string &device);

/// Whether `rows` (objects with `host`) were measured on more than one host.
bool severalHosts(const Protocol::Json &rows);

/// `row`'s `host`, `device_name` and `node` set from `origin` (localOrigin() or a SubOutcome's;
/// null where `origin` lacks them): where a row of a job was measured or compiled.
void labelOrigin(Protocol::Json &row, const Protocol::Json &origin);

/// Run `subs` as Ray tasks on the cluster at `address`, all at once (Ray schedules them on its
/// nodes), filling [begin, begin + share) of `parent`'s bar with their mean progress; each task's
/// events are sent through `parent` with the sub-request's `fields` (snapshot announcements and
/// stage artifacts stay on the worker: their paths exist here only when the task is done).
/// `device`: the requests' device (a CUDA task asks Ray for a GPU). Fails the whole job (JobFailed)
/// before anything runs when Ray is missing or the address does not answer (ray_unavailable, one
/// line), and on a cancel (every task cancelled first) unless `cancelled` is given: then a cancel
/// sets it and returns the outcomes (a task cut short has error code `cancelled`; one that had
/// finished keeps its result and files). A task that fails is an outcome with `error`; the others
/// still run.
std::vector<SubOutcome> runOnRay(const Job &parent, double begin, double share, const std::string &address,
                                 const std::vector<SubRequest> &subs, const std::string &device,
                                 bool *cancelled = nullptr);

} // namespace AotStudio::Pipeline
