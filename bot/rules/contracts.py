"""Contracts: fulfilling one (own or national) with energy, taking and discarding private
contracts, the limit of contracts held, refilling the offer.

Rewards and productions ask for these decisions by their task kinds (`fulfil_contract`,
`take_contract`, `discard_contract`); a contract's own reward is applied by `apply_reward`.
"""

from __future__ import annotations

from bot.rules.engine import Game
from bot.rules.hooks import Hooks
from bot.rules.notation import Discard, Fulfil, Take
from bot.rules.options import Option
from bot.rules.rewards import apply_reward, describe_reward
from bot.rules.rulebook import RuleSet
from bot.rules.tasks import Task

RULES: RuleSet[Game] = RuleSet("contracts")


def contract_level(contract_id: int) -> str:
    """The pile a private contract belongs to ("green", "yellow", "red")."""
    return {2: "green", 3: "yellow", 4: "red"}[contract_id // 100]


def contract_limit(game: Game, company_id: str) -> int:
    """How many face-up contracts a company may hold."""
    limit = game.content.officers[game.officer_of(company_id)].contract_limit or 3
    for ask in game.hooked(Hooks.contract_limit):
        limit = ask(game, company_id, limit)
    return limit


def contract_discount(game: Game, company_id: str) -> int:
    """Energy a production needs less to fulfil a contract (France's ability)."""
    return sum(ask(game, company_id) for ask in game.hooked(Hooks.contract_discount))


def _fulfil_options(game: Game, entry: Task) -> list[Option]:
    """Contracts this energy can fulfil: own face-up ones and (production only) national ones."""
    company_id = entry["player"]
    energy = entry["energy"]
    # RULINGS 10: France's -3 applies only to energy from a production action.
    discount = contract_discount(game, company_id) if entry.get("production") else 0
    cap = entry.get("max_energy")
    options = []
    candidates = [(cid, "own") for cid in game.company(company_id).contracts]
    if entry.get("national"):
        candidates += [(cid, "national") for cid in game.state.national_offer]
    for contract_id, where in candidates:
        contract = game.content.contracts[contract_id]
        if cap is not None and contract.energy > cap:
            continue
        if entry.get("levels") and contract.kind not in entry["levels"]:
            continue
        if entry.get("requires_energy", True) and contract.energy - discount > energy:
            continue
        label = f"Fulfil {contract.kind} contract {contract_id} ({contract.energy} energy): "
        label += describe_reward(contract.reward, game.content)
        options.append(Option(Fulfil(contract_id), label, group=f"contracts {where}"))
    if options:
        options.append(Option(Fulfil(None), "Fulfil no contract", group="contracts"))
    return options


def _fulfil_prompt(game: Game, entry: Task) -> str:
    if entry.get("requires_energy", True):
        return f"Fulfil a contract with {entry['energy']} energy?"
    return "Fulfil a contract (reward)"


@RULES.task("fulfil_contract", options=_fulfil_options, prompt=_fulfil_prompt)
def _fulfil_contract(game: Game, entry: Task, move: Fulfil) -> None:
    contract_id = move.contract  # None: "contract none"
    if contract_id is not None:
        fulfil_contract(game, entry["player"], contract_id)
        for ask in game.hooked(Hooks.contract_fulfilled):
            ask(game, entry["player"], contract_id, entry)


def fulfil_contract(game: Game, company_id: str, contract_id: int) -> None:
    """Turn a contract face down in the company's supply and take its reward."""
    company = game.company(company_id)
    if contract_id in company.contracts:
        company.contracts.remove(contract_id)
    else:
        game.state.national_offer.remove(contract_id)
    company.fulfilled.append(contract_id)
    contract = game.content.contracts[contract_id]
    game.emit("contract", company_id, source=f"contract:{contract_id}", data={"id": contract_id})
    apply_reward(game, company_id, contract.reward, f"contract:{contract_id}")


def _take_options(game: Game, entry: Task) -> list[Option]:
    options = []
    for level in ("green", "yellow", "red"):
        for contract_id in game.state.private_offer.get(level, []):
            contract = game.content.contracts[contract_id]
            label = f"Take {level} {contract_id} ({contract.energy} energy): "
            label += describe_reward(contract.reward, game.content)
            options.append(Option(Take(contract_id), label, group=f"contracts {level}"))
    return options


@RULES.task("take_contract", options=_take_options, prompt=lambda g, e: "Take a private contract")
def _take_contract(game: Game, entry: Task, move: Take) -> None:
    contract_id = move.contract
    level = contract_level(contract_id)
    game.state.private_offer[level].remove(contract_id)
    game.state.pending_refill.append(level)
    game.company(entry["player"]).contracts.append(contract_id)
    game.emit("contract_taken", entry["player"], source=entry["source"], data={"id": contract_id})
    if entry["remaining"] > 1:
        game.push({**entry, "remaining": entry["remaining"] - 1})


def _discard_options(game: Game, entry: Task) -> list[Option]:
    company = game.company(entry["player"])
    if len(company.contracts) <= contract_limit(game, entry["player"]):
        return []
    options = []
    for contract_id in company.contracts:
        contract = game.content.contracts[contract_id]
        options.append(
            Option(
                Discard(contract_id),
                f"Discard {contract.kind} contract {contract_id} ({contract.energy} energy)",
                group="contracts",
            )
        )
    return options


@RULES.task(
    "discard_contract",
    options=_discard_options,
    prompt=lambda g, e: f"Too many contracts: discard down to {contract_limit(g, e['player'])}",
)
def _discard_contract(game: Game, entry: Task, move: Discard) -> None:
    company = game.company(entry["player"])
    company.contracts.remove(move.contract)
    game.emit("contract_discarded", entry["player"], data={"id": move.contract})
    if len(company.contracts) > contract_limit(game, entry["player"]):
        game.push(entry.copy())


def refill_contract_offer(game: Game) -> list[int]:
    """Reveal replacements for the private contracts taken this turn (at Confirm)."""
    revealed = []
    for level in game.state.pending_refill:
        pile = game.state.private_piles.get(level, [])
        if pile:
            contract_id = pile.pop(0)
            game.state.private_offer[level].append(contract_id)
            revealed.append(contract_id)
    game.state.pending_refill.clear()
    if revealed:
        game.emit("contracts_revealed", data={"ids": revealed})
    return revealed
