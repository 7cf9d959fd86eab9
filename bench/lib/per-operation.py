"""Instructions per operation from two callgrind dumps of one server.

A server runs under callgrind; its counters are dumped after a run of A
operations and again after a run of A + N: both runs pay the same one-time
costs (a connection, the catalog), so the second dump less the first, over N,
is what one operation costs. Given the dump pairs of two servers, prints each
one's instructions per operation and the functions whose own cost changed most.

usage: per-operation.py N BEFORE_FIRST BEFORE_SECOND AFTER_FIRST AFTER_SECOND [TOP]
"""

import collections
import re
import sys


def self_costs(path):
    """Instructions spent in each function itself (not in its callees)."""
    names, costs = {}, collections.Counter()
    function, in_call = None, False
    with open(path, errors="replace") as dump:
        for line in dump:
            if line.startswith(("fn=", "cfn=")):
                match = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                if match.group(2):
                    names[match.group(1)] = match.group(2)
                if line.startswith("fn="):
                    function = names.get(match.group(1), match.group(1))
            elif line.startswith("calls="):
                in_call = True  # the next cost line is the call's, not ours
            elif line[:1].isdigit() or line[:1] in "+-*":
                fields = line.split()
                if in_call:
                    in_call = False
                elif function is not None and len(fields) >= 2:
                    costs[re.sub(r"::h[0-9a-f]{16}$", "", function)] += int(fields[1])
    return costs


def per_operation(first, second, n):
    a, b = self_costs(first), self_costs(second)
    return {name: (b[name] - a[name]) / n for name in set(a) | set(b)}


def main():
    n = float(sys.argv[1])
    before = per_operation(sys.argv[2], sys.argv[3], n)
    after = per_operation(sys.argv[4], sys.argv[5], n)
    top = int(sys.argv[6]) if len(sys.argv) > 6 else 15
    total_before, total_after = sum(before.values()), sum(after.values())
    print(f"instructions per operation: before {total_before:.0f}, after {total_after:.0f} "
          f"({100 * total_after / total_before:.1f} %)")
    names = set(before) | set(after)
    change = {name: after.get(name, 0) - before.get(name, 0) for name in names}
    print(f"{'before':>9} {'after':>9} {'change':>8}  function (own instructions per operation)")
    for name in sorted(names, key=lambda name: -abs(change[name]))[:top]:
        print(f"{before.get(name, 0):9.0f} {after.get(name, 0):9.0f} {change[name]:+8.0f}  {name[:110]}")


main()
