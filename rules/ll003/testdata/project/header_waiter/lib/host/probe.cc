// Host code that includes the header for its struct: it compiles no device
// code, so it does not decide whether the wait is covered.
#include "../include/proxy/wait.h"

unsigned long long read_head(const ProxyCell *cell) { return cell->head; }
