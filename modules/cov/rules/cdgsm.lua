-- Congress of Vienna: the card-driven solo method (Playbook 19, "CDGSM"). In the solitaire
-- games no side holds a hand in the Diplomacy Phase: each side (France, and the Coalition
-- of the three Allied powers) lays its dealt cards out as a display of spaces A, B, D and
-- E beside a face-down draw pile C (19.2), and every card it plays, to wager, negotiate,
-- debate or trade, comes from the spaces a fate die makes available (19.3). A side may set
-- aside the military cards it could use in this turn's War Phase (the "PUMC", 19.1) in a
-- Military pile; when the draw pile runs out, that pile becomes the draw pile and the
-- whole display is open to play (19.4). The side's remaining PUMC go to the War Phase (19.5).
--
-- The displays and what is done to them between plays are in rules/cdgsm_display.lua;
-- this file hands that library on and holds the states:
--   * cdgsm_play: one card played (19.3), called by the rules that need the card;
--   * cdgsm_desk: the method on its own, for tests and practice (`--option cdgsm=FR` or
--     `cdgsm=allies` enters it at set-up instead of the first turn).
-- The Playbook's readings are listed in RULES-GAPS.md ("The card-driven solo method").

local powers = include("rules/powers.lua")
local cards = include("rules/cards.lua")
local solo = include("rules/cdgsm_display.lua")

local cdgsm = {}

-- The library (rules/cdgsm_display.lua): cdgsm.setup(ctx, side, cards),
-- cdgsm.after_wager(ctx, side, cards), cdgsm.pumc(ctx, power, card),
-- cdgsm.war_cards(ctx, side), cdgsm.clear(ctx, side, to_zone), cdgsm.side_of(power),
-- cdgsm.zone(side, what).
cdgsm.setup = solo.setup
cdgsm.after_wager = solo.after_wager
cdgsm.pumc = solo.pumc
cdgsm.war_cards = solo.war_cards
cdgsm.clear = solo.clear
cdgsm.side_of = solo.side_of
cdgsm.zone = solo.zone

local zone = solo.zone
local SPACES = solo.SPACES

local PURPOSES = { wager = "for the Wager", negotiate = "to negotiate", debate = "to debate", trade = "to trade",
  round = "to negotiate or trade", discard = "to discard for a Leader" }

local LETTER_RANK = cards.LETTER_RANK

-- The six results of the fate die (owner data `cdgsm_fate` says which face gives which):
-- the spaces each turns face up and makes available, and whether it turns up the draw
-- pile's top card (C) too. "C or lowest-lettered" picks its cards in its own way.
local RESULTS = {
  ["C or lowest-lettered"] = { spaces = {}, top = true },
  AB = { spaces = { "A", "B" } },
  DE = { spaces = { "D", "E" } },
  ABC = { spaces = { "A", "B" }, top = true },
  CDE = { spaces = { "D", "E" }, top = true },
  ["all except C"] = { spaces = { "A", "B", "D", "E" } },
}

-- After 19.4 no die is rolled and every space is available.
local DEPLETED = "depleted"
local LOWEST = "C or lowest-lettered"

local function card_name(ctx, card)
  return cards.name(ctx, card)
end

local function power_name(ctx, power)
  return powers.name(ctx, power)
end

-- Playing a card (19.3) -------------------------------------------------------------------

-- The state cdgsm_play: ctx:call("cdgsm_play", {side = "FR"|"allies", power = "FR", purpose
-- = "wager"|"negotiate"|"debate"|"trade"|"round"|"discard", nation = nil|"FR"}) ("round": to
-- negotiate or trade, chosen once the card is known; `nation`: only a card of that nation
-- may be played, as France's pre-emptive debate needs a French card; `piece`: the issue a
-- debate is on, for a bot weighing the cards). It rolls the fate die (none once the draw pile
-- has run out), turns up the cards the result makes available, lets the power save one
-- face-up PUMC to the Military pile, asks which available card it plays, moves that card
-- off the display to "cdgsm.<side>.played" (a Wager card or a card given in trade face down
-- to "wager" or "offer", its name told to its seat alone), refills the open spaces and pops
-- {card = id, space = "A"|"B"|"C"|"D"|"E"}: the caller plays the card and discards it. It
-- pops {} when nothing can be played. A declared debate may not be taken back once the
-- cards are seen (19.3, the second note): the caller asks before it calls.
cdgsm.cdgsm_play = {}

local function letter(ctx, power, card)
  return cards.letter(ctx, card, power)
end

-- "C or lowest-lettered": the turned-up top of the draw pile, and the face-up card(s) of
-- A, B, D, E with the lowest letter for the active power (a tie offers each of them).
local function lowest_options(ctx, locals, without)
  local list = {}
  local top = solo.turned_top(ctx, locals.side)
  if top and top ~= without then
    list[#list + 1] = { card = top, space = "C" }
  end
  local best, lowest = nil, {}
  for _, space in ipairs(SPACES) do
    local card, up = solo.card_in(ctx, locals.side, space)
    local rank = card and up and card ~= without and LETTER_RANK[letter(ctx, locals.power, card)]
    if rank and (best == nil or rank < best) then
      best, lowest = rank, { { card = card, space = space } }
    elseif rank and rank == best then
      lowest[#lowest + 1] = { card = card, space = space }
    end
  end
  for _, option in ipairs(lowest) do
    list[#list + 1] = option
  end
  return list
end

-- Whether the call may play `card`: any card, or one of `locals.nation` only (France's
-- pre-emptive debate needs a French card, 16.2).
local function allowed(ctx, locals, card)
  return locals.nation == nil or (ctx:known("card", card, "nation") and cards.nation(ctx, card) == locals.nation)
end

-- The cards the power may play now, each {card, space}, leaving out `without`.
local function play_options(ctx, locals, without)
  local list = {}
  if locals.result == LOWEST then
    list = lowest_options(ctx, locals, without)
  else
    local depleted = locals.result == DEPLETED
    for _, space in ipairs(depleted and SPACES or RESULTS[locals.result].spaces) do
      local card, up = solo.card_in(ctx, locals.side, space)
      if card and up and card ~= without then
        list[#list + 1] = { card = card, space = space }
      end
    end
    local top = solo.turned_top(ctx, locals.side)
    if top and top ~= without and not depleted and RESULTS[locals.result].top then
      list[#list + 1] = { card = top, space = "C" }
    end
  end
  local kept = {}
  for _, option in ipairs(list) do
    if allowed(ctx, locals, option.card) then
      kept[#kept + 1] = option
    end
  end
  return kept
end

-- The face-up PUMC the power may save (19.3, step 3), from A-E: none once the Military
-- pile is closed, and none that would leave the result nothing to play (a reading).
local function save_options(ctx, locals)
  if solo.transferred(ctx, locals.side) then
    return {}
  end
  local candidates = solo.face_up(ctx, locals.side)
  -- "C or lowest-lettered" always has the next card of the draw pile to fall back on.
  local fallback = locals.result == LOWEST and locals.nation == nil and ctx:count(zone(locals.side, "C")) > 0
  local list = {}
  for _, option in ipairs(candidates) do
    if solo.pumc(ctx, locals.power, option.card) and (fallback or #play_options(ctx, locals, option.card) > 0) then
      list[#list + 1] = option
    end
  end
  return list
end

-- Steps 1 and 2: rolls the fate die and turns up what its result makes available.
local function roll_fate(ctx, locals)
  local side = locals.side
  local die = ctx:roll(6, "the fate die (19.3)")
  local result = ctx.data.tables.cdgsm_fate[tostring(die)]
  local rule = RESULTS[result]
  if rule == nil then
    error(string.format("the fate die's face %d reads '%s', which is none of the six results of 19.3", die, tostring(result)), 0)
  end
  locals.die, locals.result = die, result
  local turned = solo.turn_up_spaces(ctx, side, rule.spaces)
  if rule.top then
    local top = solo.turn_up_top(ctx, side)
    if top then
      turned[#turned + 1] = string.format("%s (top of the draw pile, C)", card_name(ctx, top))
    end
  end
  ctx:log(string.format("%s rolls the fate die (19.3): %d, \"%s\"; turned face up: %s.", power_name(ctx, locals.power),
    die, result, #turned > 0 and table.concat(turned, ", ") or "nothing"))
end

-- Step 4 begins: the cards to choose from. (The prompt's mode, `locals.mode`, says whether
-- it offers the cards to play or, at step 3, the card to save.) "C or lowest-lettered" with none left turns up
-- the draw pile's next card (or, with the draw pile empty, opens the display: 19.4).
local function begin_play(ctx)
  local locals = ctx.locals
  locals.mode, locals.saves = "play", nil
  local options = play_options(ctx, locals)
  if #options == 0 and locals.result == LOWEST then
    if ctx:count(zone(locals.side, "C")) == 0 then
      solo.deplete(ctx, locals.side)
      locals.result = DEPLETED
    else
      local top = solo.turn_up_top(ctx, locals.side)
      ctx:log(string.format("No lettered card lies face up: the draw pile's top card is turned up, %s.", card_name(ctx, top)))
    end
    options = play_options(ctx, locals)
  end
  if #options == 0 then
    ctx:log(string.format("%s has no %scard to play from %s.", power_name(ctx, locals.power),
      locals.nation and (powers.adjective(locals.nation) .. " ") or "",
      locals.side == "FR" and "its display" or "the Coalition's display"))
    ctx:pop({})
    return
  end
  locals.options = options
end

local function check_call(ctx, locals)
  solo.check_side(locals.side)
  if ctx.data.seats[locals.power] == nil or solo.side_of(locals.power) ~= locals.side then
    error(string.format("'%s' does not play from %s solo display", tostring(locals.power), solo.side_possessive(locals.side)), 0)
  end
  if PURPOSES[locals.purpose] == nil then
    error(string.format("unknown purpose '%s' for a solo display card (wager, negotiate, debate, trade, round or discard)",
      tostring(locals.purpose)), 0)
  end
end

function cdgsm.cdgsm_play.on_enter(ctx)
  local locals = ctx.locals
  check_call(ctx, locals)
  solo.record(ctx, locals.side)
  if solo.pile_size(ctx, locals.side) == 0 then
    solo.deplete(ctx, locals.side)
  end
  if solo.transferred(ctx, locals.side) then
    locals.result = DEPLETED
    for _, space in ipairs(SPACES) do
      solo.turn_up(ctx, locals.side, space)
    end
  else
    roll_fate(ctx, locals)
  end
  local saves = save_options(ctx, locals)
  if #saves > 0 then
    locals.mode, locals.saves = "save", saves
  else
    begin_play(ctx)
  end
end

local function prompt_text(ctx, locals)
  local why = locals.result == DEPLETED and "the draw pile ran out, so every card on the display may be played (19.4)"
    or string.format("fate die %d, \"%s\"", locals.die, locals.result)
  if locals.mode == "save" then
    return string.format("19.3, step 3: %s may move one face-up military card it could use in this turn's War Phase to the Military pile, before it plays a card %s (%s).",
      power_name(ctx, locals.power), PURPOSES[locals.purpose], why)
  end
  return string.format("19.3, step 4: %s plays one of the available cards %s (%s).", power_name(ctx, locals.power),
    PURPOSES[locals.purpose], why)
end

function cdgsm.cdgsm_play.prompt(ctx)
  local locals = ctx.locals
  local actions = {}
  if locals.mode == "save" then
    for _, option in ipairs(locals.saves) do
      actions[#actions + 1] = { name = "save", arg = option.card, card = option.card,
        label = string.format("Save %s (%s) to the Military pile", card_name(ctx, option.card), solo.space_words(option.space)) }
    end
    actions[#actions + 1] = { name = "save_none", label = "Save none" }
  else
    for _, option in ipairs(locals.options) do
      actions[#actions + 1] = { name = "play", arg = option.card, card = option.card,
        label = string.format("Play %s (%s)", card_name(ctx, option.card), solo.space_words(option.space)) }
    end
  end
  return {
    seat = powers.seat(ctx, locals.power),
    text = powers.as_power(ctx, locals.power) .. prompt_text(ctx, locals),
    actions = actions,
  }
end

local function find(options, card)
  for _, option in ipairs(options or {}) do
    if option.card == card then
      return option
    end
  end
  return nil
end

-- The option of `card` among `options` while the play is at step `mode` ("save", "play");
-- else an error: the card's name, then `refused`.
local function option_of(ctx, mode, options, card, refused)
  local option = find(options, card)
  if ctx.locals.mode ~= mode or option == nil then
    error(string.format("%s %s", card_name(ctx, card), refused), 0)
  end
  return option
end

function cdgsm.cdgsm_play.save(ctx, card)
  local locals = ctx.locals
  local option = option_of(ctx, "save", locals.saves, card, "cannot be saved now")
  ctx:move_card(card, zone(locals.side, "military"))
  ctx:log(string.format("%s saves %s (%s) to the Military pile (19.3, step 3).", power_name(ctx, locals.power),
    card_name(ctx, card), solo.space_words(option.space)))
  begin_play(ctx)
end

function cdgsm.cdgsm_play.save_none(ctx)
  ctx:log(string.format("%s saves no card to the Military pile.", power_name(ctx, ctx.locals.power)))
  begin_play(ctx)
end

-- The cards laid face down, to be shown later: a Wager card and a card given in trade.
local FACE_DOWN = { wager = "wager", trade = "offer" }

function cdgsm.cdgsm_play.play(ctx, card)
  local locals = ctx.locals
  local option = option_of(ctx, "play", locals.options, card, "is not available to play")
  local down = FACE_DOWN[locals.purpose]
  ctx:move_card(card, zone(locals.side, down or "played"))
  if down then
    ctx:log(string.format("%s lays the card of %s face down %s (19.3, step 4).", power_name(ctx, locals.power),
      solo.space_words(option.space), PURPOSES[locals.purpose]))
    ctx:tell(powers.seat(ctx, locals.power), string.format("You lay %s face down %s.", card_name(ctx, card),
      PURPOSES[locals.purpose]))
  else
    ctx:log(string.format("%s plays %s (%s) %s (19.3, step 4).", power_name(ctx, locals.power), card_name(ctx, card),
      solo.space_words(option.space), PURPOSES[locals.purpose]))
  end
  solo.refill(ctx, locals.side, option.space)
  ctx:pop({ card = card, space = option.space })
end

-- The method on its own (tests and practice) -----------------------------------------------

-- The state cdgsm_desk, entered at set-up with `--option cdgsm=FR` (or allies) instead of
-- the first turn: the players lay out the cards they put in the side's hands, give it the
-- Initial Phase's cards the same way, play cards through cdgsm_play (each played card is
-- discarded), and end the phase with the list of the War Phase's cards.
cdgsm.cdgsm_desk = {}

-- The side's powers still in the game, clockwise from France.
local function side_powers(ctx, side)
  return side == "FR" and { "FR" } or powers.allied(ctx)
end

-- The cards in the hands of the side's powers.
local function hand_cards(ctx, side)
  local hands, seen = {}, {}
  for _, power in ipairs(side_powers(ctx, side)) do
    local hand = powers.hand_zone(ctx, power)
    if not seen[hand] then
      seen[hand] = true
      hands[#hands + 1] = hand
    end
  end
  return solo.cards_in(ctx, hands)
end

-- Enters the desk (from the rules' set-up, given the option's value).
function cdgsm.start_desk(ctx, side)
  solo.check_side(side)
  ctx:log(string.format("The card-driven solo method (19) on its own, on %s display.", solo.side_possessive(side)))
  ctx:call("cdgsm_desk", { side = side })
end

local function laid_out(ctx, side)
  return solo.any_cards(ctx, solo.zones(side))
end

function cdgsm.cdgsm_desk.prompt(ctx)
  local side = ctx.locals.side
  local actions = {}
  local laid = laid_out(ctx, side)
  if #hand_cards(ctx, side) > 0 then
    actions[#actions + 1] = laid
      and { name = "receive", label = "Add the cards in hand as the Initial Phase's cards (19.2, after the Wager)" }
      or { name = "lay_out", label = "Lay out the cards in hand as the display (19.2)" }
  end
  if laid then
    for _, power in ipairs(side_powers(ctx, side)) do
      for _, purpose in ipairs({ "wager", "negotiate", "debate", "trade" }) do
        actions[#actions + 1] = { name = "play", arg = { power = power, purpose = purpose },
          label = string.format("%s plays a card %s (19.3)", power_name(ctx, power), PURPOSES[purpose]) }
      end
    end
    actions[#actions + 1] = { name = "war", label = "End the Diplomacy Phase: the military cards for the War Phase (19.5)" }
  end
  return {
    text = string.format("The card-driven solo method (19) on %s display: lay out the cards in hand, play cards, end the phase.",
      solo.side_possessive(side)),
    actions = actions,
  }
end

function cdgsm.cdgsm_desk.lay_out(ctx)
  solo.setup(ctx, ctx.locals.side, hand_cards(ctx, ctx.locals.side))
end

function cdgsm.cdgsm_desk.receive(ctx)
  solo.after_wager(ctx, ctx.locals.side, hand_cards(ctx, ctx.locals.side))
end

function cdgsm.cdgsm_desk.play(ctx, arg)
  ctx:call("cdgsm_play", { side = ctx.locals.side, power = arg.power, purpose = arg.purpose })
end

function cdgsm.cdgsm_desk.on_resume(ctx, result)
  if result and result.card then
    ctx:move_card(result.card, "discard")
    ctx:log(string.format("%s goes to the discard pile.", card_name(ctx, result.card)))
  end
end

function cdgsm.cdgsm_desk.war(ctx)
  local side = ctx.locals.side
  local list = solo.war_cards(ctx, side)
  solo.record(ctx, side).war_cards = list
  ctx:log(string.format("%s military cards for the War Phase (19.5): %s.", solo.side_possessive(side, true), solo.names(ctx, list)))
end

return cdgsm
