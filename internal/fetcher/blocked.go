package fetcher

import (
	"errors"

	"github.com/focuscrawl/focuscrawl/internal/netguard"
)

// KindBlocked is the kind of a request refused by the address check:
// the message is "blocked address 10.1.2.3 (private)", with no ":" after
// the kind (IPv6 addresses hold colons): match it as a prefix. Trying
// again cannot help.
const KindBlocked = netguard.Kind

// blockedMessage gives the Page.Error message of a request the address
// check refused, and whether err is one.
func blockedMessage(err error) (string, bool) {
	var be *netguard.BlockedError
	if errors.As(err, &be) {
		return be.Error(), true
	}
	return "", false
}
