-- Congress of Vienna: a power's turn in a Diplomacy Round (Playbook 16.2, Round 1-6): it
-- negotiates an issue with a card, plays its Leader (the issue to its Seat, secured, for a
-- card of its choice), offers a trade or, after a debate, passes; every play opens one
-- debate window, clockwise from the player's left, which France may pre-empt twice a phase
-- with a French card. With two or three players one person plays several powers from one
-- hand (18.2-18.3) and some plays are barred (rules/restrictions.lua). In the solitaire
-- seatings (20-23) the cards come from the sides' displays through the fate die (19.3):
-- a power declares what it plays for, then the die gives the card (a bot that may trade
-- rolls first and then chooses, 21.5), and a debate, once declared, goes ahead (L1442);
-- the states that play from the displays are in rules/solo_diplomacy.lua.

local util = include("@lib/util.lua")
local powers = include("rules/powers.lua")
local display = include("rules/display.lua")
local cards = include("rules/cards.lua")
local effects = include("rules/effects.lua")
local hands = include("rules/hands.lua")
local restrictions = include("rules/restrictions.lua")
local options = include("rules/options.lua")
local solitaire = include("rules/solitaire.lua")
local solo = include("rules/cdgsm_display.lua")
local chartdice = include("rules/chartdice.lua")

local diplomacy = {}

local MAX_PREEMPTS = 2

local name, issue_name, as_power = powers.name, display.issue_name, powers.as_power

local function dip(ctx)
  return ctx.vars.diplomacy
end

-- A card play's argument: the card, or {card =, power =} from a seat that plays several
-- powers (or, from a solo display, {power =} alone: the fate die gives the card).
local function play_arg(ctx, power, card)
  if powers.shares_seat(ctx, power) then
    return { card = card, power = power }
  end
  return card
end

local function read_play(arg, seat)
  if type(arg) == "table" then
    return arg.card, arg.power or seat
  end
  return arg, seat
end

local function discard(ctx, card)
  ctx:move_card(card, "discard")
  ctx:flip(card, true)
end

-- A card a power has played on an issue goes to the discard pile (or, for the Enhanced
-- French bot, under France's draw pile: 21.12).
local function discard_played(ctx, power, card)
  if not solitaire.keep_played(ctx, power, card) then
    discard(ctx, card)
  end
end

-- Runs the card's own effect when it is played, if it has one.
local function card_effect(ctx, card, power, piece, how)
  local effect = effects[card]
  if effect and effect.played then
    effect.played(ctx, power, piece, how)
  end
end

-- The Leaders `power` may play: in its hand, or beside its side's display.
local function leaders_of(ctx, power)
  if solitaire.displays(ctx) then
    return solo.leaders(ctx, power)
  end
  local _, leaders = cards.hand(ctx, power)
  return leaders
end

-- Whether `power` has a card for a play: a Leader, or any card of its hand (of its side's
-- display, the fate die to give it).
local function has_cards(ctx, power, leader)
  if leader then
    return #leaders_of(ctx, power) > 0
  elseif solitaire.displays(ctx) then
    return solo.has_playable(ctx, solo.side_of(power))
  end
  return #cards.hand(ctx, power) > 0
end

-- A power's action in a Diplomacy Round.
diplomacy.round_turn = {}

-- A power's Debate marker stands on the Diplomacy Round Track from its debate until its
-- next action, and back on its own space otherwise.
local function has_debate_marker(ctx, power)
  return ctx:space_of("marker.debate." .. power) == "diplomacy_round"
end

function diplomacy.round_turn.on_enter(ctx)
  local power = ctx.locals.power
  -- A power that debated since its last action may pass now; the marker comes off either
  -- way (16.2, Round 5).
  -- The Lützen & Bautzen French bot's option lutzen_france.pass=by-table lets France pass
  -- without it (18.4.5.5; RULES-GAPS.md).
  ctx.locals.may_pass = has_debate_marker(ctx, power)
    or (power == "FR" and ctx.vars.lutzen and options.get(ctx, "lutzen_france.pass") == "by-table")
  ctx:place("marker.debate." .. power, "debate", power)
end

-- The end of a card's label in a prompt: where the move takes the issue, and its sum. Left
-- out where nobody reads it (a simulation): it works out the whole sum.
local function label_move(ctx, card, power, piece, debate)
  if not ctx.watched or not cards.known(ctx, card) then
    return ""
  end
  local sum = cards.move_sum(ctx, card, power, piece, debate)
  local owner, n = display.after_move(ctx, piece, power, sum:total())
  return string.format(": to %s (%s)", owner and display.describe(ctx, owner, n) or "the Negotiation Table", sum:explain())
end

-- The issues `power` may negotiate now.
local function negotiable(ctx, power)
  return util.filter(display.negotiable(ctx), function(piece)
    return not restrictions.issue(ctx, power, piece, "negotiate")
  end)
end

-- The powers `power` may offer a trade now.
local function partners(ctx, power)
  if solitaire.displays(ctx) and not solitaire.may_start_trade(ctx, power) then
    return {}
  end
  return util.filter(powers.in_game(ctx), function(other)
    return other ~= power and has_cards(ctx, other) and not restrictions.trade(ctx, power, other)
  end)
end

-- A round's actions from a solo display (19.3): negotiate or offer a trade (the fate die
-- then gives the card), or, for a bot that rolls first, roll and then choose with the card
-- it gave (`ctx.locals.drawn`); a Leader beside the display.
local function display_actions(ctx, power, actions)
  local can_negotiate = #negotiable(ctx, power) > 0
  local with = partners(ctx, power)
  local drawn = ctx.locals.drawn
  if drawn then
    if can_negotiate then
      actions[#actions + 1] = { name = "negotiate", arg = drawn, card = drawn, label = "Negotiate with " .. cards.name(ctx, drawn) }
    end
    for _, other in ipairs(with) do
      actions[#actions + 1] = { name = "trade", arg = other,
        label = string.format("Offer %s to %s in trade", cards.name(ctx, drawn), name(ctx, other)) }
    end
    return
  end
  if not has_cards(ctx, power) then
    with = {}
  elseif solitaire.rolls_first(ctx, power) and (can_negotiate or #with > 0) then
    actions[#actions + 1] = { name = "draw", label = "Roll the fate die, then negotiate or trade with the card it gives (21.5)" }
    with = {}
  elseif can_negotiate then
    actions[#actions + 1] = { name = "negotiate", label = "Negotiate: the fate die gives the card (19.3)" }
  end
  if can_negotiate then
    for _, card in ipairs(leaders_of(ctx, power)) do
      actions[#actions + 1] = { name = "leader", arg = card, card = card,
        label = string.format("Play %s (Leader): an issue to your Seat, the fate die giving a card to discard", cards.name(ctx, card)) }
    end
  end
  for _, other in ipairs(with) do
    actions[#actions + 1] = { name = "trade", arg = other,
      label = string.format("Offer %s a card in trade: the fate die gives the card", name(ctx, other)) }
  end
end

function diplomacy.round_turn.prompt(ctx)
  local power = ctx.locals.power
  local actions = {}
  if solitaire.displays(ctx) then
    display_actions(ctx, power, actions)
  else
    local hand, leaders = cards.hand(ctx, power)
    if #negotiable(ctx, power) > 0 then
      for _, card in ipairs(hand) do
        actions[#actions + 1] = { name = "negotiate", arg = card, card = card, label = "Negotiate with " .. cards.name(ctx, card) }
      end
      for _, card in ipairs(leaders) do
        actions[#actions + 1] = { name = "leader", arg = card, card = card,
          label = string.format("Play %s (Leader): an issue to your Seat, discarding a card", cards.name(ctx, card)) }
      end
    end
    if #hand > 0 then
      for _, other in ipairs(partners(ctx, power)) do
        actions[#actions + 1] = { name = "trade", arg = other, label = string.format("Offer %s a card in trade", name(ctx, other)) }
      end
    end
  end
  local committed = ctx.locals.drawn ~= nil
  if ctx.locals.may_pass and not committed then
    actions[#actions + 1] = { name = "pass", label = "Pass (you debated since your last action)" }
  elseif #actions == 0 then
    actions[1] = { name = "pass", label = "Pass: nothing left to play" }
  end
  local text = committed and string.format("Diplomacy Round %d: the fate die gave %s: negotiate with it or offer it in trade.",
    ctx.locals.round, cards.name(ctx, ctx.locals.drawn))
    or string.format("Diplomacy Round %d: negotiate, play your Leader, offer a trade%s.", ctx.locals.round,
      ctx.locals.may_pass and " or pass" or "")
  return { seat = powers.seat(ctx, power), text = as_power(ctx, power) .. text, actions = actions }
end

-- From a solo display the card comes from the fate die first (`locals.pending` says what
-- for); a card the die gave already (`locals.drawn`) is played at once.
local function from_display(ctx, purpose, to)
  local locals = ctx.locals
  locals.pending, locals.to = purpose, to
  ctx:call("cdgsm_play", { side = solo.side_of(locals.power), power = locals.power, purpose = purpose })
end

function diplomacy.round_turn.negotiate(ctx, card)
  local locals = ctx.locals
  if solitaire.displays(ctx) and card == nil then
    from_display(ctx, "negotiate")
    return
  end
  if solitaire.displays(ctx) and card ~= locals.drawn then
    error(string.format("%s is not the card the fate die gave", cards.name(ctx, card)), 0)
  end
  ctx:call("negotiation", { power = locals.power, card = card, committed = solitaire.displays(ctx) })
end

function diplomacy.round_turn.draw(ctx)
  from_display(ctx, "round")
end

function diplomacy.round_turn.leader(ctx, card)
  ctx:call("negotiation", { power = ctx.locals.power, card = card, leader = true })
end

function diplomacy.round_turn.trade(ctx, other)
  local locals = ctx.locals
  local power = locals.power
  restrictions.traded(ctx, power, other)
  if not solitaire.displays(ctx) then
    ctx:log(string.format("%s offers %s a card in trade.", name(ctx, power), name(ctx, other)))
    ctx:call("trade", { from = power, to = other })
  elseif locals.drawn then
    local card = locals.drawn
    ctx:move_card(card, solo.zone(solo.side_of(power), "offer"))
    ctx:call("solo_trade", { from = power, to = other, card = card })
  else
    from_display(ctx, "trade", other)
  end
end

function diplomacy.round_turn.pass(ctx)
  ctx:log(string.format("%s passes.", name(ctx, ctx.locals.power)))
  ctx:pop({})
end

-- What comes back: the card the fate die gave (then the play it was for), or the end of the
-- play; "back" from the choice of an issue asks the round's question again.
function diplomacy.round_turn.on_resume(ctx, result)
  local locals = ctx.locals
  local pending = locals.pending
  locals.pending = nil
  if pending ~= nil and not result.card then
    ctx:log(string.format("%s gets no card from its display: its action is spent.", name(ctx, locals.power)))
    ctx:pop({})
  elseif pending == "negotiate" then
    ctx:call("negotiation", { power = locals.power, card = result.card, committed = true })
  elseif pending == "trade" then
    ctx:call("solo_trade", { from = locals.power, to = locals.to, card = result.card })
  elseif pending == "round" then
    locals.drawn = result.card
  elseif not result.back then
    ctx:pop({})
  end
end

-- A play on an issue: choose the issue (or go back), then the move, the Leader's discard,
-- and the debate window.
diplomacy.negotiation = {}

function diplomacy.negotiation.prompt(ctx)
  local locals = ctx.locals
  local power, card = locals.power, locals.card
  local actions = {}
  for _, piece in ipairs(negotiable(ctx, power)) do
    local label = issue_name(ctx, piece) .. ", on " .. display.describe_piece(ctx, piece)
    if locals.leader then
      label = label .. ": to your Seat, secured"
    else
      label = label .. label_move(ctx, card, power, piece, false)
    end
    actions[#actions + 1] = { name = "on", arg = piece, piece = piece, label = label }
  end
  if not locals.committed then
    actions[#actions + 1] = { name = "back", label = "Back: choose another action" }
  end
  return { seat = powers.seat(ctx, power), text = as_power(ctx, power) .. string.format("Play %s on which issue?", cards.name(ctx, card)), actions = actions }
end

function diplomacy.negotiation.back(ctx)
  if ctx.locals.committed then
    error("the card came from the fate die: it must be played", 0)
  end
  ctx:pop({ back = true })
end

local may_preempt, debaters, finish_play

-- A Leader's play or debate costs one more card of the player's choice (16.2, Round 4), not
-- a Leader: asks for it, unless there is none. Returns whether it asked.
local function leader_discard(ctx, power, card)
  if not has_cards(ctx, power) then
    ctx:log(string.format("%s has no other card to discard.", name(ctx, power)))
    return false
  end
  ctx:call(solitaire.displays(ctx) and "solo_leader_discard" or "leader_discard", { power = power, card = card })
  return true
end

-- Opens the debate of the play: France is first offered to pre-empt when it could and
-- would not be the first asked anyway; then the window (when anyone can debate).
local function open_debate(ctx)
  local locals = ctx.locals
  local player, piece = locals.power, locals.piece
  if #debaters(ctx, player, piece, locals.leader == true) == 0 then
    finish_play(ctx, {})
    return
  end
  if not locals.leader and may_preempt(ctx, player, nil) and debaters(ctx, player, piece, false)[1] ~= "FR" then
    ctx:call("preempt", { player = player, piece = piece, front = true })
    return
  end
  ctx:call("debate", { player = player, piece = piece, leader = locals.leader == true })
end

function diplomacy.negotiation.on(ctx, piece)
  local locals = ctx.locals
  local power, card = locals.power, locals.card
  local secured = ctx.vars.secured[piece]
  local kind = display.where(ctx, piece)
  if secured or (kind ~= "table" and kind ~= "track") then
    error(string.format("%s cannot be negotiated now", issue_name(ctx, piece)), 0)
  end
  restrictions.played(ctx, power, piece)
  locals.piece = piece
  local from = display.describe_piece(ctx, piece)
  if locals.leader then
    discard(ctx, card)
    locals.n = display.SEAT
    local where = display.put(ctx, piece, power, display.SEAT)
    ctx:log(string.format("%s plays %s on %s: from %s to %s.", name(ctx, power), cards.name(ctx, card), issue_name(ctx, piece), from, where))
    locals.stage = "discard"
    if not leader_discard(ctx, power, card) then
      locals.stage = "debate"
      open_debate(ctx)
    end
    return
  end
  local sum = cards.move_sum(ctx, card, power, piece, false)
  local owner, n = display.after_move(ctx, piece, power, sum:total())
  discard_played(ctx, power, card)
  local where = display.put(ctx, piece, owner, n)
  if n >= display.SEAT then
    dip(ctx).beyond = { piece = piece, power = power, n = n }
  end
  locals.n = owner == power and n or 0
  ctx:log(string.format("%s negotiates %s: from %s to %s (%s).", name(ctx, power), issue_name(ctx, piece), from, where, sum:explain()))
  card_effect(ctx, card, power, piece, "negotiate")
  hands.refill(ctx)
  locals.stage = "debate"
  open_debate(ctx)
end

function finish_play(ctx, result)
  local locals = ctx.locals
  local d = dip(ctx)
  d.beyond = nil
  if not result.debated and locals.n >= display.SEAT then
    ctx.vars.secured[locals.piece] = true
    ctx:log(string.format("Nobody debates: %s is secured on %s.", issue_name(ctx, locals.piece), display.describe_piece(ctx, locals.piece)))
  end
  ctx:pop({})
end

-- What the negotiation waits for when a sub-procedure returns: its local `stage` is "discard"
-- while a Leader's discard is asked (then the debate opens), "debate" once it is open. These
-- are the module's last uses of a hand-kept stage: an action's two follow-ups, not a
-- procedure that steps would read better as. (Declared steps would also open more frames
-- around the decisions here, and the flow's frames seed the bots' draws: bot games would
-- change.)
function diplomacy.negotiation.on_resume(ctx, result)
  if ctx.locals.stage == "discard" then
    ctx.locals.stage = "debate"
    open_debate(ctx)
    return
  end
  finish_play(ctx, result)
end

-- The debate window (16.2): after a play, the other powers, clockwise from the player's
-- left, may declare one debate; the first to declare debates. Only a Leader may debate a
-- Leader's play. France may pre-empt a declared debate (below).
diplomacy.debate = {}

local function debate_cards(ctx, power, leader)
  if leader then
    return leaders_of(ctx, power)
  end
  return (cards.hand(ctx, power))
end

-- The powers that may debate a play of `player` on `piece`, clockwise from its left.
function debaters(ctx, player, piece, leader)
  local list = {}
  for _, power in ipairs(powers.from_left_of(ctx, player)) do
    if power ~= player and not powers.passive(ctx, power) and has_cards(ctx, power, leader)
      and not restrictions.debate(ctx, power, player) and not restrictions.issue(ctx, power, piece, "debate") then
      list[#list + 1] = power
    end
  end
  return list
end

function diplomacy.debate.prompt(ctx)
  local locals = ctx.locals
  local asks, by_seat = {}, {}
  for _, power in ipairs(debaters(ctx, locals.player, locals.piece, locals.leader)) do
    local seat = powers.seat(ctx, power)
    if not by_seat[seat] then
      by_seat[seat] = {}
      asks[#asks + 1] = { seat = seat, actions = by_seat[seat] }
    end
    local actions = by_seat[seat]
    if solitaire.displays(ctx) and not locals.leader then
      actions[#actions + 1] = { name = "debate", arg = { power = power },
        label = as_power(ctx, power) .. "Debate: the fate die gives the card (once declared, the debate goes ahead, 19.3)" }
      chartdice.offer(ctx, actions, power, 1, power == "FR" and "21.6.2" or "20.7.b")
    else
      for _, card in ipairs(debate_cards(ctx, power, locals.leader)) do
        local label = locals.leader and ": to your Seat, secured" or label_move(ctx, card, power, locals.piece, true)
        actions[#actions + 1] = { name = "debate", arg = play_arg(ctx, power, card), card = card,
          label = as_power(ctx, power) .. string.format("Debate with %s%s", cards.name(ctx, card), label) }
      end
    end
  end
  return {
    text = string.format("%s played on %s (now on %s): does anyone debate?", name(ctx, locals.player),
      issue_name(ctx, locals.piece), display.describe_piece(ctx, locals.piece)),
    asks = asks,
  }
end

-- Whether France may pre-empt a debate another power has declared: twice a phase, with a
-- French national card, on another power's play (16.2, Round 5).
function may_preempt(ctx, player, debater)
  if debater == "FR" or player == "FR" or powers.passive(ctx, "FR") then
    return false
  end
  if dip(ctx).preempts >= MAX_PREEMPTS then
    return false
  end
  local list = solitaire.displays(ctx) and solo.playable(ctx, "FR") or cards.hand(ctx, "FR")
  for _, card in ipairs(list) do
    if ctx:known("card", card, "nation") and cards.nation(ctx, card) == "FR" then
      return true
    end
  end
  return false
end

-- Carries out `power`'s debate of the play on `piece` with `card`.
function diplomacy.carry_out_debate(ctx, power, card, piece, leader)
  local d = dip(ctx)
  local from = display.describe_piece(ctx, piece)
  if d.beyond and d.beyond.piece == piece then
    from = string.format("%s (%d)", from, d.beyond.n)
  end
  if leader then
    discard(ctx, card)
  else
    discard_played(ctx, power, card)
  end
  restrictions.played(ctx, power, piece)
  hands.refill(ctx)
  ctx:place("marker.debate." .. power, "diplomacy_round", tostring(d.round or 1))
  if leader then
    local where = display.put(ctx, piece, power, display.SEAT)
    ctx.vars.secured[piece] = true
    d.beyond = nil
    ctx:log(string.format("%s debates with %s: %s goes from %s to %s, secured.", name(ctx, power), cards.name(ctx, card),
      issue_name(ctx, piece), from, where))
    return
  end
  local sum = cards.move_sum(ctx, card, power, piece, true)
  local owner, n = display.after_move(ctx, piece, power, sum:total())
  d.beyond = nil
  local where = display.put(ctx, piece, owner, n)
  if owner == power and n >= display.SEAT then
    ctx.vars.secured[piece] = true
    where = where .. ", secured"
  end
  ctx:log(string.format("%s debates with %s: %s goes from %s to %s (%s).", name(ctx, power), cards.name(ctx, card),
    issue_name(ctx, piece), from, where, sum:explain()))
  card_effect(ctx, card, power, piece, "debate")
end

function diplomacy.debate.debate(ctx, arg, seat)
  local locals = ctx.locals
  local card, power = read_play(arg, seat)
  if not locals.leader and may_preempt(ctx, locals.player, power) then
    ctx:log(string.format("%s declares a debate.", name(ctx, power)))
    ctx:call("preempt", { player = locals.player, piece = locals.piece, debater = power, card = card })
    return
  end
  if card == nil then
    ctx:log(string.format("%s declares a debate.", name(ctx, power)))
    ctx:call("solo_debate", { power = power, piece = locals.piece })
    return
  end
  diplomacy.carry_out_debate(ctx, power, card, locals.piece, locals.leader)
  locals.result = { debated = power }
  if not (locals.leader and leader_discard(ctx, power, card)) then
    ctx:pop(locals.result)
  end
end

function diplomacy.debate.on_resume(ctx, result)
  ctx:pop(ctx.locals.result or result)
end

function diplomacy.debate.all_passed(ctx)
  ctx:pop({})
end

diplomacy.debate.chart_roll = chartdice.roll

-- France's pre-emptive debate (16.2, Round 5): before the others are asked, or once
-- another power has declared a debate, France debates first with a French card; a
-- declared debate then does not happen (its card stays in hand). The track advances.
diplomacy.preempt = {}

function diplomacy.preempt.prompt(ctx)
  local locals = ctx.locals
  local text
  if locals.front then
    text = string.format("%s played on %s (now on %s): France may pre-empt the debate with a French card (%d of %d used).",
      name(ctx, locals.player), issue_name(ctx, locals.piece), display.describe_piece(ctx, locals.piece),
      dip(ctx).preempts, MAX_PREEMPTS)
  else
    text = string.format("%s declares a debate on %s: France may pre-empt it with a French card (%d of %d used).",
      name(ctx, locals.debater), issue_name(ctx, locals.piece), dip(ctx).preempts, MAX_PREEMPTS)
  end
  local actions = {}
  if solitaire.displays(ctx) then
    actions[1] = { name = "preempt",
      label = "Pre-empt: the fate die gives France's card, which must be French (once declared, it goes ahead, 19.3)" }
    chartdice.offer(ctx, actions, "FR", 1, "21.6.2")
  end
  for _, card in ipairs(solitaire.displays(ctx) and {} or cards.hand(ctx, "FR")) do
    if ctx:known("card", card, "nation") and cards.nation(ctx, card) == "FR" then
      actions[#actions + 1] = { name = "preempt", arg = card, card = card,
        label = string.format("Pre-empt with %s%s", cards.name(ctx, card), label_move(ctx, card, "FR", locals.piece, true)) }
    end
  end
  return { text = text, asks = { { seat = "FR", actions = actions } } }
end

diplomacy.preempt.chart_roll = chartdice.roll

function diplomacy.preempt.preempt(ctx, card)
  local locals = ctx.locals
  if card == nil then
    -- From France's display: the fate die must give a French card (rules/solo_diplomacy.lua).
    ctx:log("France declares a pre-emptive debate.")
    ctx:replace("solo_debate", { power = "FR", piece = locals.piece, nation = "FR", preempt = true,
      player = locals.player, debater = locals.debater, front = locals.front })
    return
  end
  diplomacy.count_preempt(ctx, locals.debater)
  diplomacy.carry_out_debate(ctx, "FR", card, locals.piece, false)
  ctx:pop({ debated = "FR" })
end

function diplomacy.preempt.all_passed(ctx)
  local locals = ctx.locals
  if locals.front then
    ctx:replace("debate", { player = locals.player, piece = locals.piece, leader = false })
    return
  elseif locals.card == nil then
    ctx:replace("solo_debate", { power = locals.debater, piece = locals.piece })
    return
  end
  diplomacy.carry_out_debate(ctx, locals.debater, locals.card, locals.piece, false)
  ctx:pop({ debated = locals.debater })
end

-- A pre-emptive debate is carried out: one of France's two this phase.
function diplomacy.count_preempt(ctx, debater)
  local d = dip(ctx)
  d.preempts = d.preempts + 1
  ctx:place("marker.fr_preempts", "fr_preempts", tostring(d.preempts))
  ctx:log(string.format("France pre-empts %s (pre-empt %d of %d).",
    debater and (powers.possessive(name(ctx, debater)) .. " debate") or "the debate", d.preempts, MAX_PREEMPTS))
end

-- The card a Leader's play or debate costs (see `leader_discard` above).
diplomacy.leader_discard = {}

function diplomacy.leader_discard.prompt(ctx)
  local power = ctx.locals.power
  local actions = {}
  for _, c in ipairs(cards.hand(ctx, power)) do
    actions[#actions + 1] = { name = "discard", arg = c, card = c, label = "Discard " .. cards.name(ctx, c) }
  end
  return { seat = powers.seat(ctx, power), actions = actions,
    text = as_power(ctx, power) .. string.format("%s: discard one card of your choice.", cards.name(ctx, ctx.locals.card)) }
end

function diplomacy.leader_discard.discard(ctx, card)
  discard(ctx, card)
  ctx:log(string.format("%s discards %s.", name(ctx, ctx.locals.power), cards.name(ctx, card)))
  hands.refill(ctx)
  ctx:pop({})
end


-- A trade (16.2, Round 1): the offering power lays a card face down for the other; at the
-- same time the other lays one face down in return, or refuses. Only the two of them see
-- the cards. Leaders are not traded (RULES-GAPS.md).
diplomacy.trade = {}

function diplomacy.trade.prompt(ctx)
  local from, to = ctx.locals.from, ctx.locals.to
  local offer, answer = {}, { { name = "refuse", label = "Refuse the trade" } }
  for _, card in ipairs(cards.hand(ctx, from)) do
    offer[#offer + 1] = { name = "offer", arg = card, card = card, label = "Offer " .. cards.name(ctx, card) }
  end
  for _, card in ipairs(cards.hand(ctx, to)) do
    answer[#answer + 1] = { name = "give", arg = card, card = card, label = "Accept, giving " .. cards.name(ctx, card) }
  end
  return {
    text = string.format("%s offers %s a trade: each lays a card face down (%s may refuse).", name(ctx, from), name(ctx, to), name(ctx, to)),
    asks = { { seat = powers.seat(ctx, from), actions = offer }, { seat = powers.seat(ctx, to), actions = answer } },
  }
end

function diplomacy.trade.reveal(ctx, choices)
  local from, to = ctx.locals.from, ctx.locals.to
  local from_seat, to_seat = powers.seat(ctx, from), powers.seat(ctx, to)
  local offered, answer = choices[from_seat], choices[to_seat]
  if answer.name == "refuse" then
    ctx:log(string.format("%s refuses the trade.", name(ctx, to)))
    ctx:tell(from_seat, string.format("%s refused; you keep %s.", name(ctx, to), cards.name(ctx, offered.arg)))
  else
    ctx:move_card(offered.arg, powers.hand_zone(ctx, to))
    ctx:move_card(answer.arg, powers.hand_zone(ctx, from))
    ctx:log(string.format("%s accepts: the two powers exchange a card face down.", name(ctx, to)))
    ctx:tell(from_seat, string.format("You gave %s and received %s.", cards.name(ctx, offered.arg), cards.name(ctx, answer.arg)))
    ctx:tell(to_seat, string.format("You received %s and gave %s.", cards.name(ctx, offered.arg), cards.name(ctx, answer.arg)))
  end
  hands.refill(ctx)
  ctx:pop({})
end

return diplomacy
