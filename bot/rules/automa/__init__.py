"""Automa companies: computer opponents at four levels, for solo and short-handed games.

No rulebook of ours has the automa; its deck, turn, criteria and levels are facts transcribed
in `bot/rules/data/automa.toml` (from the reference data). This package holds the rules that
read them; the engine core asks it only which seats are automas and at which level
(`seats`), so a game without automas plays exactly as before.

Seats and options. `GameOptions.automa` lists the automa seats' levels (0 easy, 1 medium,
2 hard, 3 expert); they take the last seats. At most 3 automas; people and automas together
2 to 4 (the engine also plays games of automas only, for benches; the service asks for at
least one person). Introductory and full setups; an expansion either supplies the automa's
behaviour for its own pieces through its package's hooks (`automa_action`, `automa_answer`)
or refuses automas in its `refuse` hook, saying why (docs/expansions.md).

Economy (`seats.make_automa`). 16 VP, no credits, no starting contract. It never pays credits
(construction fees, conduit fees, red outlines: free) and every credit it would gain is 1 VP
(`Game.gain`). The objective tile pays it 20/15/10 by place. Its construction engineers go on
a single construction space of its board, used any number of times a round (back at the end of
the round).

Levels. Easy: no income (neither in the income phase nor when a piece uncovers it) and no
production bonus from its powerhouse row. Medium: incomes and that bonus. Hard: also the
technology tiles' cost rules and effects and its company board's ability. Expert: also its
executive officer's ability (and the officer's starting resources and own tiles, which below
Expert it does without).

The deck (`deck`). Each automa has its own 20 cards, shuffled at setup after every other draw.
A turn: the flipped card goes to the discard, the top card is flipped (its criteria count), the
new top card's actions are played; an empty deck takes the discard, reshuffled by the engine's
generator kept in the state.

The turn (`turn`). The actions in the card's order: each one it can do is done (engineers: the
card's count, capped by those left, on the first free space of the board in the data's
`[space_order]`, or its first space when all are taken; a construction's on its own board; a
patent's on the Patent Office space of the slot), minus its `vp_cost`; the turn stops right
after a done produce, construct, rotate_wheel, gain_machinery, patent or external_work, and when
no engineers are left. place_drops, clear_contracts and gain_vp do not stop it. With nothing
possible it passes (never in practice: gain_vp is on every card).

Action types, as this engine reads them:
- produce: only with a reason (energy < 6 × round, or an opponent with at least as much) and a
  face-up private contract of the card's level that its best production meets (France's
  discount from Hard on). It produces with the system giving the most energy (all the dam's
  drops; the card's bonus plus the board's; the first system in the map's order on a tie),
  then fulfils the face-up private contract of any level with the highest requirement it meets
  (the lowest number on a tie; national contracts are never its), whose reward it takes.
- place_drops: each drop on the first headstream in the flipped card's order whose drop would
  end in one of its dams (simulated with the dams as they are plus the drops it already
  placed this action); doable when at least one drop finds one.
- construct: the card's structure (areas, least conduit production) on a legal space where it
  has a tile and the machinery (its best tile: advanced by level, then the tile made for the
  structure, then a wild one; machinery never replaced by credits), chosen by the flipped
  card's criteria (`criteria` docstring). The wheel turns one segment as for anyone.
- rotate_wheel (if anything is on its wheel), gain_machinery ("any": the kind it has fewer of,
  excavators on a tie; not in the last round when the card says so), gain_vp (the Bank).
- clear_contracts: the face-up private contracts of the level go under their pile (so they
  come back once the pile is used up), it advances the card's energy; the offer is refilled at
  the end of its turn, as after anyone's Confirm.
- patent (full game): the face-up advanced tile of the highest level that builds the structure
  (an "any" tile counts; the lowest slot on a tie), free.
- external_work and building constructions: the expansion whose pieces they are performs them
  (`automa_action` hook); without it they are never possible.

An officer's or tile's own action (a turn action, an extra turn, Mahiri's copy) is never an
automa's: its cards name all it does; what an ability changes in the rules it does follow
(costs, production, capacities, incomes) applies from its level on.

Other decisions an automa faces (rewards, the draft, incomes): `play.automa_answer`. The draft:
an automa picks, in the drawn picking order, the first pair still offered in the order they
were dealt, and takes no starting contract.

Records. Every automa answer is a decision of the log like a person's: its turn is the
`automa_turn` decision (one option, `automa`), never applied by the engine on its own, so the
service appends it (`play.automa_steps`) in the transaction of the commit before it; replay,
export and rewind stay exact. Its card flips reveal hidden cards, so a person's turn followed
by automa turns cannot be undone.
"""
