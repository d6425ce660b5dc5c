// Access macros in the style of an operating-system kernel, shared by the
// project's sources.
#pragma once
#define ACCESS_ONCE(x) (*(volatile __typeof__(x) *)&(x))
#define READ_ONCE(x) ACCESS_ONCE(x)
#define WRITE_ONCE(x, v) (ACCESS_ONCE(x) = (v))
