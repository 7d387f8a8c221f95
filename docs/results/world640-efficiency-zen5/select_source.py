#!/usr/bin/env python3
"""Prints the records of a JSON Lines records file whose source is SOURCE, in file order.
Usage: select_source.py RECORDS.jsonl SOURCE"""
import json, sys

if len(sys.argv) != 3:
    sys.exit("select_source: usage: select_source.py RECORDS.jsonl SOURCE")
try:
    with open(sys.argv[1]) as f:
        for line in f:
            if line.strip() and json.loads(line).get('source') == sys.argv[2]:
                sys.stdout.write(line)
except (OSError, ValueError) as e:
    sys.exit(f"select_source: {e}")
