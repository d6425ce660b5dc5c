/*
 * cuda_runtime.h written by lazylint (`lazylint cgo-headers DIR`): includes
 * the runtime API subset in cuda_runtime_api.h. FOR TYPE-CHECKING ONLY (go
 * vet, golangci-lint); build with the CUDA toolkit's headers.
 */
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__

#include "cuda_runtime_api.h"

#endif /* __CUDA_RUNTIME_H__ */
