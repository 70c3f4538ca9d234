"""Key/value states of prompt prefixes, kept across engine calls (vLLM's automatic prefix caching, SGLang's radix tree).

A prompt's states are cached in whole blocks of ``block_tokens`` tokens along a radix tree: an edge holds a
run of blocks and the keys and values of those tokens, computed with every earlier token of the path as context,
so states are only ever reused after exactly the same preceding tokens, at exactly the same positions. Two kinds
of reuse follow without any knowledge of the protocol:

* every request of a role shares its system prompt (and, four-shot, the worked examples);
* a conversation's next turn starts with its previous prompt, so only the new messages are computed.

A lookup returns a few pieces (one per edge on the path) rather than one piece per block, so that laying the
states out for a batch costs a handful of copies per row. Memory is bounded (``max_bytes``); the least recently
used edges go first, each with the edges below it. Tensors are kept per layer as ``(kv_heads, tokens, head_dim)``
on the model's device.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

# Per layer, the (keys, values) of a run of tokens: each (kv_heads, tokens, head_dim).
States = list[tuple[Any, Any]]


@dataclass(eq=False)
class _Edge:
    tokens: tuple[int, ...]  # a whole number of blocks
    states: States
    parent: _Edge | None
    children: dict[tuple[int, ...], _Edge] = field(default_factory=dict)  # keyed by the child's first block
    nbytes: int = 0
    path_bytes: int = 0  # this edge's bytes and its ancestors'

    def __post_init__(self) -> None:
        self.nbytes = sum(_nbytes(k) + _nbytes(v) for k, v in self.states)
        self.path_bytes = self.nbytes + (self.parent.path_bytes if self.parent is not None else 0)


class PrefixCache:
    def __init__(self, max_bytes: int, block_tokens: int = 16):
        if block_tokens < 1:
            raise ValueError("block_tokens must be at least 1")
        self.max_bytes = max_bytes
        self.block_tokens = block_tokens
        self._root = _Edge((), [], None)
        self._lru: OrderedDict[_Edge, None] = OrderedDict()  # least recently used first
        self.bytes = 0
        self.evicted_tokens = 0

    def _common_blocks(self, edge: _Edge, tokens: list[int], start: int) -> int:
        """How many of ``edge``'s tokens, in whole blocks, ``tokens[start:]`` starts with."""
        size, n = self.block_tokens, len(edge.tokens)
        if n <= len(tokens) - start and edge.tokens == tuple(tokens[start:start + n]):
            return n
        matched = 0
        while (matched + size <= n and start + matched + size <= len(tokens)
               and edge.tokens[matched:matched + size] == tuple(tokens[start + matched:start + matched + size])):
            matched += size
        return matched

    def _walk(self, tokens: list[int]) -> tuple[int, list[tuple[_Edge, int]]]:
        """The cached length of ``tokens`` and the edges on its path, each with how much of it matched."""
        size, edge, pos, path = self.block_tokens, self._root, 0, []
        while pos + size <= len(tokens):
            child = edge.children.get(tuple(tokens[pos:pos + size]))
            if child is None:
                break
            matched = self._common_blocks(child, tokens, pos)
            path.append((child, matched))
            pos += matched
            if matched < len(child.tokens):
                break
            edge = child
        return pos, path

    def match(self, tokens: list[int]) -> tuple[int, list[States]]:
        """The longest cached block prefix of ``tokens``: its length and its states, in pieces (one per edge)."""
        hit, path = self._walk(tokens)
        for edge, _ in path:
            self._lru.move_to_end(edge)
        pieces = [[(k[:, :matched], v[:, :matched]) for k, v in edge.states] for edge, matched in path]
        return hit, pieces

    def store(self, tokens: list[int], start: int, states: States) -> None:
        """Keep the whole blocks of ``tokens``, given the states of ``tokens[start:]`` (``start`` a block boundary).

        Stores nothing if the first ``start`` tokens are no longer cached (evicted meanwhile).
        """
        if self.max_bytes <= 0:
            return
        hit, path = self._walk(tokens)
        end = len(tokens) // self.block_tokens * self.block_tokens
        if hit < start or hit >= end:
            return
        parent = self._root
        if path:
            last, matched = path[-1]
            parent = self._split(last, matched) if matched < len(last.tokens) else last
        per_token = sum(_nbytes(k[:, :1]) + _nbytes(v[:, :1]) for k, v in states)
        room = self.max_bytes - parent.path_bytes
        fits = room // max(per_token, 1) // self.block_tokens * self.block_tokens
        end = min(end, hit + fits)  # a path longer than the whole cache keeps its first blocks
        if end <= hit:
            return
        offset = hit - start
        new = _Edge(tuple(tokens[hit:end]), [(k[:, offset:offset + end - hit].clone(),
                                              v[:, offset:offset + end - hit].clone()) for k, v in states], parent)
        parent.children[new.tokens[:self.block_tokens]] = new
        self._lru[new] = None
        self.bytes += new.nbytes
        self._evict(keep=new)

    def _split(self, edge: _Edge, at: int) -> _Edge:
        """Cut ``edge`` after ``at`` tokens; returns the upper part (which keeps ``edge``'s place in the tree)."""
        lower = _Edge(edge.tokens[at:], [(k[:, at:].clone(), v[:, at:].clone()) for k, v in edge.states], edge,
                      edge.children)
        lower.path_bytes = edge.path_bytes
        for child in lower.children.values():
            child.parent = lower
        edge.tokens = edge.tokens[:at]
        edge.states = [(k[:, :at].clone(), v[:, :at].clone()) for k, v in edge.states]
        edge.children = {lower.tokens[:self.block_tokens]: lower}
        edge.nbytes -= lower.nbytes
        edge.path_bytes -= lower.nbytes  # the edges below keep theirs
        self._lru[lower] = None
        self._lru.move_to_end(edge)
        return edge

    def _evict(self, keep: _Edge) -> None:
        if self.bytes <= self.max_bytes:
            return
        protected = set(_ancestors(keep))
        for edge in list(self._lru):
            if self.bytes <= self.max_bytes:
                return
            if edge not in protected and edge in self._lru:
                self._drop(edge)

    def _drop(self, edge: _Edge) -> None:
        stack = [edge]
        while stack:
            e = stack.pop()
            stack.extend(e.children.values())
            self._lru.pop(e, None)
            self.bytes -= e.nbytes
            self.evicted_tokens += len(e.tokens)
        if edge.parent is not None:
            edge.parent.children.pop(edge.tokens[:self.block_tokens], None)

    def summary(self) -> dict[str, Any]:
        return {"block_tokens": self.block_tokens, "max_mib": round(self.max_bytes / 2**20, 1),
                "edges": len(self._lru), "stored_tokens": sum(len(e.tokens) for e in self._lru),
                "stored_mib": round(self.bytes / 2**20, 1), "evicted_tokens": self.evicted_tokens}


def _ancestors(edge: _Edge | None) -> list[_Edge]:
    out = []
    while edge is not None:
        out.append(edge)
        edge = edge.parent
    return out


def _nbytes(tensor: Any) -> int:
    return int(tensor.numel() * tensor.element_size())
