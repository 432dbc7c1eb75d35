-- Congress of Vienna: a STAND-IN player for any power. It is NOT from the Playbook (whose
-- own bots, sections 20 and 21, come later): it exists so that bot-only games can be
-- simulated (Lützen & Bautzen's Allies, and every seat of the other scenarios and
-- seatings). It is greedy: each legal action gets a score, an explained sum of simple
-- terms, and the best one is taken (the first on ties).
--   * Diplomacy: an issue is worth its place on the tracks: +n on the power's own track,
--     +n/2 on another Allied power's, -n on France's (n = the space, 1-7), 0 on the Table.
--     A card play is worth the gain it makes, less half the card's printed value (big cards
--     are kept for when they matter) and 2 more for a military card (kept for the War
--     Phase). It plays when the best play gains something, passes when it may, and
--     debates France's play when a card takes the issue off France's track.
--   * Trades are neither offered nor accepted.
--   * Government: fund its won issues, then Military Support up to two, then Sound
--     Government.
--   * War: every usable military card is laid for its side; losses come off the largest
--     box; everything else takes the rules' first offer, or Done where it is offered.

local flowchart = include("@lib/flowchart.lua")
local decide = include("rules/decide.lua")
local modifiers = include("@lib/modifiers.lua")
local cards = include("rules/cards.lua")
local display = include("rules/display.lua")

local bot = {}

-- The power a seat decides for now (a seat may play several powers in 2-3 player games).
local function power_of(ctx, seat)
  return ctx.locals.power or seat
end

-- What an issue at (owner, n) is worth to `power`.
local function worth(power, owner, n)
  if owner == nil or n == 0 then
    return 0
  elseif owner == power then
    return n
  elseif owner == "FR" then
    return -n
  end
  return n / 2
end

local function worth_now(ctx, power, piece)
  local kind, owner, n = display.where(ctx, piece)
  if kind ~= "track" then
    return 0
  end
  return worth(power, owner, math.min(n, display.SEAT))
end

local function is_military(ctx, card)
  return ctx:known("card", card, "military") and ctx.data.cards[card].fields.military == true
end

-- What playing `card` on `piece` gains `power`: what the issue is worth where the card
-- takes it, less `now`, what it is worth where it stands. `at` (optional) is what the
-- caller worked out once for the issue: its track and its position seen from `power`.
local function issue_gain(ctx, power, card, piece, debate, now, at)
  at = at or {}
  local move = cards.move_total(ctx, card, power, piece, debate, at.track)
  local owner, n = display.after_move(ctx, piece, power, move, at.from)
  return worth(power, owner, math.min(n, display.SEAT)) - now
end

-- The explained score of playing `card`, whose values are all entered, on `piece` for
-- `power`; `now` is what the issue is worth where it stands, `military` whether the card
-- is military (a caller that weighs every card on every issue works each out once).
local function known_play_score(ctx, power, card, piece, debate, now, military)
  local sum = modifiers.sum(string.format("%s on %s", cards.name(ctx, card), ctx.data.pieces[piece].name))
  sum:add(issue_gain(ctx, power, card, piece, debate, now), "the issue's gain")
  sum:add(-cards.printed(ctx, card) / 2, "half the card's value")
  sum:add_if(military, -2, "a military card")
  return sum
end

-- known_play_score's total without its words: its terms added in the same order, so the
-- same number to the last bit.
local function known_play_total(ctx, power, card, piece, debate, now, military, at)
  local total = 0 + issue_gain(ctx, power, card, piece, debate, now, at)
  total = total + -cards.printed(ctx, card) / 2
  if military then
    total = total + -2
  end
  return total
end

-- The explained score of playing `card` on `piece` for `power`, or nil if the card's
-- values are not all entered.
local function play_score(ctx, power, card, piece, debate)
  if not cards.known(ctx, card) then
    return nil
  end
  return known_play_score(ctx, power, card, piece, debate, worth_now(ctx, power, piece), is_military(ctx, card))
end

-- The best play of one of `hand` on one of `pieces`: its score, card, issue and sum. What
-- depends on the card alone or the issue alone is worked out once, and the words of the
-- sum only for the best play.
local function best_play(ctx, power, hand, pieces, debate)
  local best
  local now, at = {}, {}
  for _, piece in ipairs(pieces) do
    now[piece] = worth_now(ctx, power, piece)
    at[piece] = { track = display.track_of(ctx, piece) or false, from = display.position(ctx, piece, power) }
  end
  for _, card in ipairs(hand) do
    if cards.known(ctx, card) then
      local military = is_military(ctx, card)
      for _, piece in ipairs(pieces) do
        local score = known_play_total(ctx, power, card, piece, debate, now[piece], military, at[piece])
        if best == nil or score > best.score then
          best = { score = score, card = card, piece = piece, military = military }
        end
      end
    end
  end
  if best then
    best.sum = known_play_score(ctx, power, best.card, best.piece, debate, now[best.piece], best.military)
  end
  return best
end

local function named(actions, name)
  return flowchart.first(actions, function(a)
    return a.name == name
  end)
end

-- From a solo display (19.3) the card is known only once the fate die gives it: the
-- stand-in negotiates (or rolls first) whenever it may, and with a card the die gave it
-- negotiates rather than trades.
local function display_round(ctx, actions, t)
  local drawn = ctx.locals.drawn
  for _, name in ipairs(drawn and { "negotiate" } or { "negotiate", "draw" }) do
    local i = named(actions, name)
    if i then
      return t:choose(i, "From the display: %s.", actions[i].label)
    end
  end
  local pass = named(actions, "pass")
  return t:choose(pass or 1, "Nothing to negotiate: %s.", actions[pass or 1].label)
end

function bot.round_turn(ctx, seat, actions, t)
  if ctx.locals.drawn or named(actions, "draw") or flowchart.first(actions, function(a)
    return a.name == "negotiate" and a.card == nil
  end) then
    return display_round(ctx, actions, t)
  end
  local power = power_of(ctx, seat)
  local hand = flowchart.collect(actions, "negotiate", "card")
  local best = best_play(ctx, power, hand, display.negotiable(ctx), false)
  if best then
    t:sum(best.sum, "The best play:")
  end
  local pass = named(actions, "pass")
  if best and (best.score > 0 or pass == nil) then
    local i = flowchart.first(actions, function(a)
      return a.name == "negotiate" and a.card == best.card
    end)
    return t:choose(i, "It gains (or nothing else is allowed): %s.", actions[i].label)
  end
  if pass then
    return t:choose(pass, "No play gains anything: pass.")
  end
  local leader = named(actions, "leader")
  return t:choose(leader or 1, "Nothing gains and passing is not allowed: %s.", actions[leader or 1].label)
end

function bot.negotiation(ctx, seat, actions, t)
  local power = power_of(ctx, seat)
  local pieces = flowchart.collect(actions, "on", "piece")
  local best
  if ctx.locals.leader then
    -- A Leader takes the issue to the Seat: the one France holds highest, else the first.
    local score
    for _, piece in ipairs(pieces) do
      local gain = worth(power, power, display.SEAT) - worth_now(ctx, power, piece)
      if score == nil or gain > score then
        best, score = { piece = piece }, gain
      end
    end
  else
    best = best_play(ctx, power, { ctx.locals.card }, pieces, false)
    if best then
      t:sum(best.sum)
    end
  end
  local i = best and flowchart.first(actions, function(a)
    return a.piece == best.piece
  end) or 1
  return t:choose(i, "The issue it gains most on: %s.", actions[i].label)
end

-- From a display the card is not known before the debate is declared: the stand-in
-- debates France's play on an issue on France's track, or (France) an Allied play on an
-- Allied track.
local function display_debate(ctx, seat, actions, t)
  local i = flowchart.first(actions, function(a)
    return a.name == "debate"
  end)
  local track = display.track_of(ctx, ctx.locals.piece)
  local power = type(actions[i].arg) == "table" and actions[i].arg.power or seat
  local worth_it = track ~= nil and ((power == "FR") ~= (track == "FR"))
  if t:ask(string.format("Does %s debate: the issue is on %s track?", power, track and (track .. "'s") or "no"), worth_it) then
    return t:choose(i, "Debate from the display.")
  end
  return t:choose(named(actions, "pass") or 1, "Let the play stand.")
end

function bot.debate(ctx, seat, actions, t)
  local best, best_i
  local declared = flowchart.first(actions, function(a)
    return a.name == "debate" and a.card == nil
  end)
  if declared then
    return display_debate(ctx, seat, actions, t)
  end
  for i, action in ipairs(actions) do
    if action.name == "debate" then
      local sum = play_score(ctx, type(action.arg) == "table" and action.arg.power or seat, action.card,
        ctx.locals.piece, true)
      if sum and (best == nil or sum:total() > best:total()) then
        best, best_i = sum, i
      end
    end
  end
  if best and best:total() > 0 then
    t:sum(best, "The best debate:")
    return t:choose(best_i, "It gains: %s.", actions[best_i].label)
  end
  return t:choose(named(actions, "pass") or 1, "No debate gains anything: let the play stand.")
end

-- The wager: the highest printed value among the non-military cards (military cards are
-- kept for the War Phase).
function bot.wager(ctx, _, actions, t)
  local i, score = flowchart.best(actions, function(a)
    if not (a.card and ctx:known("card", a.card, "value")) then
      return nil
    end
    return cards.printed(ctx, a.card) - (is_military(ctx, a.card) and 10 or 0)
  end)
  return t:choose(i or 1, "The highest non-military value (%s): %s.", tostring(score), actions[i or 1].label)
end

-- Issue Selection and the free issue: the power's own issues first.
local function own_issue(ctx, seat, actions, t)
  local power = string.lower(power_of(ctx, seat))
  local i = flowchart.first(actions, function(a)
    local props = a.piece and ctx.data.pieces[a.piece].props or {}
    return props.issue and string.sub(props.issue, -3) == "_" .. power
  end)
  return t:choose(i or 1, "%s.", i and "One of its own issues" or "The first issue offered")
end

bot.free_issue = own_issue
bot.selection = own_issue

function bot.trade(_, _, actions, t)
  local refuse = named(actions, "refuse")
  return t:choose(refuse or 1, "The stand-in never trades.")
end

function bot.leader_discard(ctx, _, actions, t)
  local i = flowchart.best(actions, function(a)
    return a.card and ctx:known("card", a.card, "value") and -cards.printed(ctx, a.card) or nil
  end)
  return t:choose(i or 1, "The lowest value: %s.", actions[i or 1].label)
end

function bot.spend(ctx, seat, actions, t)
  local fund = named(actions, "fund")
  if fund then
    return t:choose(fund, "Fund a won issue: %s.", actions[fund].label)
  end
  local power = power_of(ctx, seat)
  local bought = ((ctx.vars.government or {}).supports or {})[power] or 0
  local support = named(actions, "support")
  if support and bought < 2 then
    return t:choose(support, "Military Support (%d bought, up to 2).", bought)
  end
  local sound = named(actions, "sound")
  return t:choose(sound or named(actions, "done"), "Then Sound Government, then Done.")
end

function bot.battle_cards(_, _, actions, t)
  local i = flowchart.first(actions, function(a)
    return a.name == "lay" and (a.arg.target == nil or a.arg.target == "own")
  end)
  if i then
    return t:choose(i, "Lay every usable military card: %s.", actions[i].label)
  end
  return t:choose(named(actions, "done"), "No card left to lay.")
end

function bot.battle_losses(ctx, _, actions, t)
  local i, n = flowchart.best(actions, function(a)
    return a.arg and a.arg.box and ctx:units(a.arg.box, a.arg.kind) or nil
  end)
  return t:choose(i or 1, "From the largest box (%s units).", tostring(n))
end

-- A card from a solo display (19.3): no card saved for the War Phase; to negotiate, the
-- card that gains most on an issue it may play; for the Wager the highest non-military
-- value; to debate the highest value; otherwise (a trade, a Leader's cost) the lowest.
function bot.cdgsm_play(ctx, seat, actions, t)
  local none = named(actions, "save_none")
  if none then
    return t:choose(none, "Save nothing.")
  end
  local purpose = ctx.locals.purpose
  if purpose == "negotiate" or purpose == "round" then
    local best = best_play(ctx, power_of(ctx, seat), flowchart.collect(actions, "play", "card"), display.negotiable(ctx), false)
    if best then
      t:sum(best.sum, "The best play:")
      return t:choose(flowchart.first(actions, function(a)
        return a.card == best.card
      end), "Play %s.", cards.name(ctx, best.card))
    end
  end
  local sign = (purpose == "wager" or purpose == "debate" or purpose == "negotiate" or purpose == "round") and 1 or -1
  local i = flowchart.best(actions, function(a)
    if not (a.card and ctx:known("card", a.card, "value")) then
      return nil
    end
    return sign * (cards.printed(ctx, a.card) - (purpose == "wager" and is_military(ctx, a.card) and 10 or 0))
  end)
  return t:choose(i or 1, "%s: %s.", sign > 0 and "The highest value" or "The lowest value", actions[i or 1].label)
end

--- An answer to a yes-or-no question (rules/decide.lua): the option "no" (its argument false,
--- else the first option), with the reason `why`.
local function answer_no(why)
  return function(ctx, actions, t)
    local no = flowchart.first(actions, function(a)
      return a.arg == false
    end)
    return t:choose(no or 1, why)
  end
end

-- The players' questions (rules/decide.lua), answered by their key: the stand-in always
-- fights (it does not withdraw) and never trades.
bot.decide = decide.answers({
  withdraw = answer_no("The stand-in always fights."),
  trade_answer = answer_no("The stand-in never trades."),
}, function(ctx, actions, t)
  return t:choose(1, "The first option.")
end)

-- A state with no plan of its own: the answer that changes nothing, else the first offer.
local function nothing_to_weigh(_, _, actions, t)
  for _, name in ipairs({ "done", "keep", "pass", "none" }) do
    local i = named(actions, name)
    if i then
      return t:choose(i, "Nothing to weigh here: %s.", actions[i].label)
    end
  end
  return t:choose(1, "Nothing to weigh here: the first offer, %s.", actions[1].label)
end

return function(ctx, seat, actions)
  local t = flowchart.trace():step("Stand-in Allied player (not the Playbook's bot).")
  return flowchart.by_state(bot, ctx, seat, actions, nothing_to_weigh, t)
end
