package knowledge

// AtomicWrites are the atomic intrinsics that write their first
// argument's target (atomicAdd(p, 0) and the like only read, see
// NoOpAtomics).
var AtomicWrites = map[string]bool{
	"atomicExch": true, "atomicExch_system": true, "atomicExch_block": true,
	"atomicAdd": true, "atomicAdd_system": true, "atomicAdd_block": true,
	"atomicSub": true, "atomicSub_system": true, "atomicInc": true, "atomicDec": true,
	"atomicOr": true, "atomicOr_system": true, "atomicAnd": true, "atomicAnd_system": true,
	"atomicXor": true, "atomicMax": true, "atomicMin": true, "atomicCAS": true,
	"atomicCAS_system": true, "atomicCAS_block": true,
}

// NoOpAtomics leave memory unchanged when their operand is zero: used as
// coherent reads.
var NoOpAtomics = map[string]bool{
	"atomicAdd": true, "atomicAdd_system": true, "atomicAdd_block": true,
	"atomicOr": true, "atomicOr_system": true, "atomicOr_block": true,
	"atomicXor": true, "atomicXor_system": true, "atomicSub": true, "atomicSub_system": true,
}

// AtomicStoreMethods write an atomic object (cuda::atomic_ref<T>(x).store(v)).
var AtomicStoreMethods = map[string]bool{
	"store": true, "fetch_add": true, "fetch_sub": true, "fetch_or": true,
	"exchange": true, "compare_exchange_strong": true, "compare_exchange_weak": true,
	"notify_all": true, "notify_one": true, "test_and_set": true, "clear": true,
}

// DeviceClocks are device clocks a watchdog in a kernel reads.
var DeviceClocks = map[string]bool{
	"clock": true, "clock64": true, "__globaltimer": true, "globaltimer": true, "read_globaltimer": true,
	"query_globaltimer": true, "get_globaltimer": true,
}
