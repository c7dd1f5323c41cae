"""Prints the number of entries of the longest index table an emitted
PREFIX.cpp lists as a brace initializer (`const Off disps3_0[] = {...};`),
for emit-tables.test: longer tables must be coded instead.

    python3 listed_tables.py PREFIX.cpp
"""
import re
import sys

text = open(sys.argv[1]).read()
lists = re.findall(r"^const (?:Off|std::size_t) \w+\[\] = \{([^}]*)\};", text,
                   re.M)
print("longest listed table:", max((len(l.split(",")) for l in lists),
                                   default=0))
