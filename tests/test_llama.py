"""A real client: a small Llama-architecture model from transformers (random weights, made here,
nothing downloaded), patched with warpgemm, against the same model on cuBLAS."""

from __future__ import annotations

import pytest
import torch

import warpgemm
from warpgemm import nn as wnn

pytestmark = pytest.mark.gpu
transformers = pytest.importorskip("transformers")


def _model() -> torch.nn.Module:
    cfg = transformers.LlamaConfig(vocab_size=1000, hidden_size=256, intermediate_size=688, num_hidden_layers=2,
                                   num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=512)
    return transformers.LlamaForCausalLM(cfg).to(device="cuda", dtype=torch.bfloat16).eval()


def test_patched_logits_match_the_unpatched_model():
    model = _model()
    ids = torch.randint(0, 1000, (3, 37), device="cuda")
    with torch.no_grad():
        ref = model(ids).logits.double()
        wnn.fallbacks.clear()
        got = warpgemm.patch(model)(ids).logits.double()
    assert not wnn.fallbacks
    assert float(torch.linalg.vector_norm(got - ref) / torch.linalg.vector_norm(ref)) < 2e-2


def _greedy(model, ids, steps):
    out = model.generate(ids, max_new_tokens=steps, min_new_tokens=steps, do_sample=False, output_logits=True,
                         return_dict_in_generate=True, pad_token_id=0)
    return out.sequences[:, ids.shape[1]:], torch.stack(out.logits, dim=1).float()


def test_greedy_generation_matches_wherever_the_top_two_logits_are_not_a_near_tie():
    model = _model()
    ids = torch.randint(0, 1000, (4, 12), device="cuda")
    with torch.no_grad():
        ref_tokens, ref_logits = _greedy(model, ids, 32)
        got_tokens, _ = _greedy(warpgemm.patch(model), ids, 32)
    compared = 0
    for row in range(ids.shape[0]):
        for step in range(32):
            top2 = ref_logits[row, step].topk(2).values
            near_tie = float(top2[0] - top2[1]) <= 2 ** -6 * max(1.0, abs(float(top2[0])))
            if got_tokens[row, step] != ref_tokens[row, step]:
                assert near_tie, f"sequence {row} step {step}: tokens differ where the logits are {top2.tolist()}"
                break  # after a (near-tie) divergence the two sequences are no longer comparable
            compared += 1
    assert compared >= 32  # the test compared something


def test_a_captured_decode_step_replays_to_the_same_logits_as_the_eager_step():
    # `warpgemm bench model` times one decode step as CUDA-graph replays: each replay must redo
    # the same step (not move one position on), and compute what the eager model computes.
    from warpgemm.bench.model import decode_step_graph

    model = warpgemm.patch(_model())
    prompt = torch.randint(0, 1000, (1, 40), device="cuda")
    step = decode_step_graph(model, prompt)
    # Whatever memory was freed after the capture is handed out again and overwritten: the step
    # must not read any of it (an out-of-range token id here would fail the embedding).
    junk = [torch.full((n,), 1 << 40, dtype=torch.int64, device="cuda") for n in (1, 8, 64, 512) * 64]
    junk += [torch.full((n,), 1e4, dtype=torch.bfloat16, device="cuda") for n in (1 << 10, 1 << 14, 1 << 16) * 16]
    step.replay()
    first = step.logits.clone()
    for _ in range(3):
        step.replay()
    torch.cuda.synchronize()
    assert torch.equal(step.logits, first)
    with torch.no_grad():
        out = model(prompt, use_cache=True)
        eager = model(out.logits[:, -1:].argmax(-1), past_key_values=out.past_key_values, use_cache=True).logits
    assert torch.allclose(first.float(), eager.float(), rtol=1e-2, atol=1e-2)
