"""The causal-LM requests of the `hf:` backend: `loglikelihood` and `generate`.

Generation is greedy or sampled per row (`RowSampler`), stops per row (`RowStopper`), and a
request with `choices` is constrained by a logits mask over the choices' tokens
(`ChoiceMask`, models/choices.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from biasaudit.models.base import split_context
from biasaudit.models.choices import ChoiceTrie, checked_choice, token_budget
from biasaudit.models.hf.loading import HFModel, error_response, index_batches
from biasaudit.models.transcript import TRANSCRIPT_STOPS, render_transcript
from biasaudit.requests import Capability, GenerateRequest, LoglikelihoodRequest, Response


class CausalLM(HFModel):
    """`loglikelihood` and `generate` on a loaded causal LM."""

    # -- log-likelihood (causal) ----------------------------------------------------------

    def _split_tokens(self, context: str, continuation: str) -> tuple[list[int], list[int]]:
        """`split_context` with the tokenizer's special prefix (e.g. BOS) before the text."""

        def start() -> int:
            bos = self.tokenizer.bos_token_id
            return int(bos if bos is not None else self.tokenizer.eos_token_id)

        return split_context(
            context, continuation, lambda t: self.prefix + self._encode(t), self._encode, start
        )

    def loglikelihood(self, requests: Sequence[LoglikelihoodRequest]) -> list[Response]:
        self._require(Capability.LOGLIKELIHOOD)
        kind = Capability.LOGLIKELIHOOD
        responses: list[Response | None] = [None] * len(requests)
        pairs = [self._split_tokens(r.context, r.continuation) for r in requests]
        ready = []
        for i, (context, continuation) in enumerate(pairs):
            problem = "empty continuation" if not continuation else None
            problem = problem or self._too_long(len(context) + len(continuation))
            if problem:
                responses[i] = error_response(kind, problem)
            else:
                ready.append(i)
        if self.args.share_prefix:  # batches of whole sharing groups
            from biasaudit.models.hf.prefix import group_batches

            sequences = [(pairs[i][0] + pairs[i][1])[:-1] for i in ready]
            batches = [
                [ready[k] for k in batch]
                for batch in group_batches(sequences, self.args.batch_size)
            ]
        else:
            ready.sort(key=lambda i: -(len(pairs[i][0]) + len(pairs[i][1])))
            batches = list(index_batches(ready, self.args.batch_size))
        for chunk in batches:
            for i, response in zip(
                chunk, self._score_causal([pairs[i] for i in chunk]), strict=True
            ):
                responses[i] = response
        return [r for r in responses if r is not None]

    def _score_causal(self, pairs: list[tuple[list[int], list[int]]]) -> list[Response]:
        from biasaudit.models.hf.prefix import shared_prefix_logprobs
        from biasaudit.models.hf.torch_utils import target_logprobs

        scorer = shared_prefix_logprobs if self.args.share_prefix else target_logprobs

        positions = [
            (row, len(context) - 1 + i, token)
            for row, (context, continuation) in enumerate(pairs)
            for i, token in enumerate(continuation)
        ]
        sequences = [(context + continuation)[:-1] for context, continuation in pairs]
        picked, greedy = scorer(self.model, sequences, self.pad_id, self.device, positions)
        responses, start = [], 0
        for _, continuation in pairs:
            end = start + len(continuation)
            scores = picked[start:end]
            responses.append(
                Response(
                    kind=Capability.LOGLIKELIHOOD,
                    logprob=float(sum(scores)),
                    is_greedy=all(greedy[start:end]),
                    n_tokens=len(scores),
                    token_logprobs=scores,
                )
            )
            start = end
        return responses

    # -- generation (causal) --------------------------------------------------------------

    def _prompt_tokens(self, request: GenerateRequest) -> tuple[list[int], tuple[str, ...]]:
        """Prompt token ids and extra stop strings (the transcript's next-turn markers)."""
        if request.prompt is not None:
            return self.prefix + self._encode(request.prompt), ()
        messages = request.messages or ()
        if self.chat_as_transcript:
            return self.prefix + self._encode(render_transcript(messages)), TRANSCRIPT_STOPS
        text = self.tokenizer.apply_chat_template(
            [m.model_dump() for m in messages], add_generation_prompt=True, tokenize=False
        )
        return self._encode(str(text)), ()

    def generate(self, requests: Sequence[GenerateRequest]) -> list[Response]:
        self._require(Capability.GENERATE)
        from jinja2 import TemplateError

        kind = Capability.GENERATE
        responses: list[Response | None] = [None] * len(requests)
        prompts: dict[int, tuple[list[int], tuple[str, ...]]] = {}
        for i, request in enumerate(requests):
            try:
                prompts[i] = self._prompt_tokens(request)
            except TemplateError as exc:
                responses[i] = error_response(kind, f"chat template: {exc}")
                continue
            problem = self._too_long(len(prompts[i][0]) + request.params.max_tokens)
            if problem:
                responses[i] = error_response(kind, problem)
                del prompts[i]
        ready = sorted(prompts, key=lambda i: -len(prompts[i][0]))
        for chunk in index_batches(ready, self.args.batch_size):
            batch = [
                (prompts[i][0], (*requests[i].params.stop, *prompts[i][1]), requests[i])
                for i in chunk
            ]
            for i, response in zip(chunk, self._generate_batch(batch), strict=True):
                responses[i] = response
        return [r for r in responses if r is not None]

    def _generate_batch(
        self, batch: list[tuple[list[int], tuple[str, ...], GenerateRequest]]
    ) -> list[Response]:
        import torch
        from transformers import LogitsProcessorList, StoppingCriteriaList

        from biasaudit.models.hf.torch_utils import (
            ChoiceMask,
            RowSampler,
            RowStopper,
            finish_generation,
            pad_batch,
        )

        params = [request.params for _, _, request in batch]
        tries = [self._choice_trie(request) for _, _, request in batch]
        limits = [
            p.max_tokens if trie is None else token_budget(p.max_tokens, trie.longest)
            for p, trie in zip(params, tries, strict=True)
        ]
        ids, mask = pad_batch(
            [tokens for tokens, _, _ in batch], self.pad_id, self.device, left=True
        )
        width = ids.shape[1]
        with torch.inference_mode():
            output = self.model.generate(
                input_ids=ids,
                attention_mask=mask,
                do_sample=False,
                max_new_tokens=max(1, *limits),
                logits_processor=LogitsProcessorList(
                    [ChoiceMask(width, tries), RowSampler(params, self.device)]
                ),
                stopping_criteria=StoppingCriteriaList(
                    [RowStopper(width, limits, [stops for _, stops, _ in batch], self._decode)]
                ),
            )
        responses = []
        for row, (_, stops, request) in enumerate(batch):
            generated = output[row, width:].tolist()
            text, reason = finish_generation(
                generated, self.eos_ids, limits[row], stops, self._decode
            )
            trie = tries[row]
            if trie is not None and request.choices:  # the choice its tokens spell
                index = trie.match(generated)
                text = request.choices[index] if index is not None else text
                responses.append(checked_choice(text, request.choices, reason))
            else:
                responses.append(
                    Response(kind=Capability.GENERATE, text=text, finish_reason=reason)
                )
        return responses

    def _choice_trie(self, request: GenerateRequest) -> ChoiceTrie | None:
        """The logits mask's view of a constrained request's choices (None: free text)."""
        if not request.choices:
            return None
        return ChoiceTrie([self._encode(c) for c in request.choices], self.eos_ids)

    def choice_support(self) -> str | None:
        return None  # a logits mask over the choices' tokens (models/choices.py)
