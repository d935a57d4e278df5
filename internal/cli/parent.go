package cli

// EnvParentPID, set by a supervisor (scripts/crawl.sh) to its own pid in
// the environment of the stages it starts, makes each stage stop
// (SIGTERM, as an interrupt) when that supervisor dies, even by SIGKILL.
// Linux only (PR_SET_PDEATHSIG); elsewhere a stage learns of it only
// through its pipes.
const EnvParentPID = "FOCUSCRAWL_PARENT_PID"
