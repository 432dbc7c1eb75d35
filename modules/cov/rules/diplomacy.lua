-- Congress of Vienna: the Diplomacy Phase (Playbook 16.2, 18.4.5). The deal by the Card
-- Hand Size track; the Wager, a secret choice on printed values; the free issue at the
-- distance high - low; two normal issues each, clockwise from the wager winner's left;
-- six rounds in which each power takes its turn (rules/rounds.lua: negotiations, Leaders,
-- trades, debates and pre-empts); and the phase's winner by the issues on its track. With
-- two or three players one person plays several powers from one hand (18.2-18.3,
-- rules/hands.lua) and some plays are barred (rules/restrictions.lua); the solitaire
-- seatings play from their displays (rules/solitaire.lua, rules/solo_diplomacy.lua).

local util = include("@lib/util.lua")
local powers = include("rules/powers.lua")
local display = include("rules/display.lua")
local cards = include("rules/cards.lua")
local hands = include("rules/hands.lua")
local restrictions = include("rules/restrictions.lua")
local solitaire = include("rules/solitaire.lua")

local steps = include("@lib/steps.lua")

local diplomacy = {}

local ROUNDS = 6

local name, issue_name, as_power = powers.name, display.issue_name, powers.as_power

local function dip(ctx)
  return ctx.vars.diplomacy
end

local function discard(ctx, card)
  ctx:move_card(card, "discard")
  ctx:flip(card, true)
end

-- Whether `power` may put a waiting issue on the display into play now. A value not
-- entered yet is read (and asked for) only when `ask` is true; otherwise such an issue
-- counts as available and the answer decides when it is chosen.
local function available(ctx, piece, power, ask)
  local p = ctx.data.pieces[piece]
  if display.where(ctx, piece) ~= "display" then
    return false, "it is not waiting on the Diplomacy Display"
  end
  if p.props.issue == "armistice" and ctx:turn() < (ctx.vars.armistice_selectable_from_turn or 0) then
    return false, string.format("the Armistice may not be selected before turn %d", ctx.vars.armistice_selectable_from_turn)
  end
  -- Against the French bot the Armistice lasts at least one full turn: Austria at War may
  -- not go on the Table the turn right after it is accepted (21.7, L1856).
  if p.props.issue == "austria_at_war" and ctx.vars.seating == "solo-vs-french-bot"
      and ctx.vars.armistice_turn and ctx:turn() == ctx.vars.armistice_turn + 1 then
    return false, "the turn right after the Armistice, Austria at War may not go on the Table (21.7)"
  end
  if ctx.vars.war_status == "limited" and (ask or ctx:known("piece", piece, "after_armistice")) then
    if p.props.after_armistice then
      return false, "it enters play only once the Armistice is in force"
    end
  end
  local barred = restrictions.issue(ctx, power, piece, "select")
  if barred then
    return false, barred
  end
  if ctx:known("piece", piece, "selectable_by") then
    local who = p.props.selectable_by
    if type(who) == "table" and not util.contains(who, power) then
      return false, string.format("%s may not select it", name(ctx, power))
    end
  end
  return true
end

local function choices_of_issues(ctx, power, action, label)
  local actions = {}
  for _, piece in ipairs(util.pieces_of_kind(ctx, "issue")) do
    if available(ctx, piece, power, false) then
      actions[#actions + 1] = { name = action, arg = piece, piece = piece, label = label(piece) }
    end
  end
  return actions
end

local wager_distance

-- The phase (16.2), step by step: the deal and the Wager, the winner's free issue, the
-- selection of issues, six Diplomacy Rounds of a turn for each power in the order of play,
-- the phase's scoring, Austria's Military Operation (two players, 18.2.4; against the
-- French bot, 21.7) and, in the solitaire seatings, the displays' cards for the War Phase
-- (19.5). The solitaire seatings deal onto their displays and play every card from them
-- (rules/solitaire.lua, rules/solo_diplomacy.lua).
diplomacy.diplomacy = steps.procedure("16.2 Diplomacy Phase", {
  {
    name = "the Wager",
    calls = { "wager", "solo_wager", "tie" },
    run = function(ctx)
      hands.deal(ctx)
      return steps.call(solitaire.displays(ctx) and "solo_wager" or "wager", {})
    end,
    resume = function(ctx, result)
      if result.tied then
        return diplomacy.ask_britain(result)
      end
      local d = dip(ctx)
      if solitaire.displays(ctx) then
        solitaire.after_wager(ctx)
      end
      d.winner = result.winner
      if d.winner then
        d.distance = wager_distance(ctx, d.winner, result.values)
        ctx:log(string.format("%s wins the Wager by %d.", name(ctx, d.winner), d.distance))
      end
      -- Two players: the Initial Phase's cards join the Allied hand, which fills up again
      -- from now on (18.2.2).
      d.refill = true
      hands.refill(ctx)
      d.order = powers.from_left_of(ctx, d.winner or "BR", function(p)
        return not powers.out(ctx, p)
      end)
      ctx:place("pawn.first_player", "diplomacy", "table")
    end,
  },
  {
    name = "the free issue",
    calls = "free_issue",
    run = function(ctx)
      local d = dip(ctx)
      if d.winner and not powers.passive(ctx, d.winner) then
        return steps.call("free_issue", { power = d.winner, distance = d.distance })
      end
    end,
  },
  {
    name = "the selection",
    calls = "selection",
    run = function(ctx)
      return steps.call("selection", { order = dip(ctx).order, picks = {} })
    end,
  },
  {
    name = "Diplomacy Rounds",
    calls = "round_turn",
    each = function(ctx)
      local turns = {}
      for round = 1, ROUNDS do
        for i, power in ipairs(dip(ctx).order) do
          turns[#turns + 1] = { round = round, power = power, first = i == 1 }
        end
      end
      return turns
    end,
    label = function(ctx, turn)
      return string.format("round %d, %s", turn.round, name(ctx, turn.power))
    end,
    run = function(ctx, turn)
      dip(ctx).round = turn.round
      if turn.first then
        ctx:log(string.format("Diplomacy Round %d.", turn.round))
      end
      ctx:place("marker.round." .. turn.power, "diplomacy_round", tostring(turn.round))
      if not powers.passive(ctx, turn.power) then
        return steps.call("round_turn", { power = turn.power, round = turn.round })
      end
    end,
  },
  {
    name = "the phase's winner",
    calls = { "phase_tie", "tie" },
    run = function(ctx)
      if powers.variant(ctx) == 2 then
        hands.end_of_phase(ctx)
      end
      return diplomacy.score(ctx)
    end,
    resume = function(ctx, result)
      if result.tied then
        return diplomacy.ask_britain(result)
      end
      if result.winner then
        diplomacy.award(ctx, result.winner)
      end
    end,
  },
  {
    name = "Austria's Military Operation",
    calls = "austria_operation",
    run = function(ctx)
      solitaire.austria_operation(ctx)
      if diplomacy.austria_operation_offered(ctx) then
        return steps.call("austria_operation", {})
      end
    end,
  },
  {
    name = "the War Phase's cards",
    run = function(ctx)
      if solitaire.displays(ctx) then
        solitaire.war_cards(ctx)
      end
    end,
  },
  finish = function(ctx)
    return { winner = dip(ctx).phase_winner }
  end,
})

function diplomacy.diplomacy.on_enter(ctx)
  ctx.vars.diplomacy = { preempts = 0 }
  ctx:place("marker.fr_preempts", "fr_preempts", "0")
end

-- The Wager (16.2): every power that takes part lays a card face down; the cards it took
-- in the Initial Phase and Leaders may not be wagered (RULES-GAPS.md). Printed values only.
-- A player of several powers lays one card for each, one after the other (18.2.2: three
-- Allied cards; 18.3: two, at most one of them French); the cards stay secret, in the
-- player's private state, until all are laid.
diplomacy.wager = {}

local function wager_cards(ctx, power)
  local list = {}
  for _, card in ipairs(cards.hand(ctx, power)) do
    if not ctx.vars.initial_cards[card] then
      list[#list + 1] = card
    end
  end
  return list
end

-- The cards a seat has laid so far, by power (read only).
local function laid(ctx, seat)
  return ctx.private[seat].wager or {}
end

-- The next power `seat` lays a card for, with the cards it may lay; nil when it is done.
local function next_wager(ctx, seat)
  local mine = laid(ctx, seat)
  local used, french = {}, false
  for _, card in pairs(mine) do
    used[card] = true
    french = french or (ctx:known("card", card, "nation") and cards.nation(ctx, card) == "FR")
  end
  for _, power in ipairs(powers.CLOCKWISE) do
    if powers.seat(ctx, power) == seat and not powers.passive(ctx, power) and mine[power] == nil then
      local list = {}
      for _, card in ipairs(wager_cards(ctx, power)) do
        local barred = french and powers.variant(ctx) == 3 and ctx:known("card", card, "nation")
          and cards.nation(ctx, card) == "FR"
        if not used[card] and not barred then
          list[#list + 1] = card
        end
      end
      if #list > 0 then
        return power, list
      end
    end
  end
  return nil
end

function diplomacy.wager.prompt(ctx)
  local asks = {}
  for _, seat in ipairs(ctx:seats()) do
    local power, list = next_wager(ctx, seat)
    if power then
      local actions = {}
      for _, card in ipairs(list) do
        local value = ctx:known("card", card, "value") and string.format(" (%d)", ctx.data.cards[card].fields.value) or ""
        actions[#actions + 1] = { name = "wager", arg = card, card = card,
          label = as_power(ctx, power) .. "Wager " .. cards.name(ctx, card) .. value }
      end
      asks[#asks + 1] = { seat = seat, actions = actions }
    end
  end
  return { text = "The Wager: lay one card face down for each power you play. The highest printed value wins; the winner puts an issue on its track.", asks = asks }
end

-- The distance of the free issue (16.2: high - low). Two players (18.2.2): an Allied winner
-- places at its value less France's, France at its value less the lowest Allied card.
-- Against a bot (20, L1547; 21, L1804; 22): an Allied winner places at the highest Allied
-- value less France's. France played by a person (20, L1547) places at high - low; the
-- French bot (21.3, L1804: the difference between the highest Allied value and France's;
-- 22 by the French bot's rules, RULES-GAPS.md) at its value less the highest Allied one.
-- 23 is played as by four players.
-- The highest and lowest of `values`, but France's when `allied_only`.
local function extremes(values, allied_only)
  local high, low
  for power, value in pairs(values) do
    if not (allied_only and power == "FR") then
      high = high == nil and value or math.max(high, value)
      low = low == nil and value or math.min(low, value)
    end
  end
  return high, low
end

function wager_distance(ctx, winner, values)
  if solitaire.against_bots(ctx) and winner ~= "FR" and values.FR then
    return values[winner] - values.FR
  end
  if solitaire.bot_power(ctx, "FR") and winner == "FR" then
    local high = extremes(values, true)
    return values.FR - (high or values.FR)
  end
  if powers.variant(ctx) == 2 and values.FR then
    if winner == "FR" then
      local _, low = extremes(values, true)
      return values.FR - (low or values.FR)
    end
    return values[winner] - values.FR
  end
  local high, low = extremes(values, false)
  return high - low
end

function diplomacy.wager.reveal(ctx, choices)
  for _, seat in ipairs(ctx:seats()) do
    local choice = choices[seat]
    if choice then
      -- The engine took only a card the prompt offered, for this power.
      local power = next_wager(ctx, seat)
      if powers.variant(ctx) == 3 and cards.nation(ctx, choice.arg) == "FR" then
        for _, other in pairs(laid(ctx, seat)) do
          if cards.nation(ctx, other) == "FR" then
            error("the player of Russia and Austria wagers at most one French card (18.3)", 0)
          end
        end
      end
      local mine = laid(ctx, seat)
      mine[power] = choice.arg
      ctx.private[seat].wager = mine
      if powers.shares_seat(ctx, power) then
        ctx:log(string.format("A card lies face down for %s.", name(ctx, power)))
      end
    end
  end
  for _, seat in ipairs(ctx:seats()) do
    if next_wager(ctx, seat) then
      return
    end
  end
  local cards_laid = {}
  for _, power in ipairs(powers.CLOCKWISE) do
    cards_laid[power] = not powers.out(ctx, power) and laid(ctx, powers.seat(ctx, power))[power] or nil
  end
  for _, seat in ipairs(ctx:seats()) do
    ctx.private[seat].wager = nil
  end
  diplomacy.wager_result(ctx, cards_laid)
end

-- The Wager's cards are shown (`laid`: a card by power) and discarded; the state on top of
-- the flow pops the winner and the values, or the tie for Britain to break.
function diplomacy.wager_result(ctx, laid)
  local values, parts = {}, {}
  for _, power in ipairs(powers.CLOCKWISE) do
    local card = laid[power]
    if card then
      local value = cards.printed(ctx, card)
      values[power] = value
      parts[#parts + 1] = string.format("%s %s %d", name(ctx, power), cards.name(ctx, card), value)
      discard(ctx, card)
    end
  end
  local high, best = util.highest(powers.CLOCKWISE, function(power)
    return values[power]
  end)
  if high == nil then
    ctx:log("Nobody wagers.")
    ctx:pop({})
    return
  end
  ctx:log("The Wager: " .. table.concat(parts, ", ") .. ".")
  if #best == 1 then
    ctx:pop({ winner = best[1], values = values })
  else
    diplomacy.break_tie(ctx, best, "the Wager", { values = values })
  end
end

-- Britain breaks every tie (its National Advantage, 16.2). Lützen & Bautzen (18.4.3):
-- Britain wins its own ties; with one or two players a Russia-France tie goes to France.
-- Against a bot (20, L1521; 21; 22): Britain, else Austria, else Russia, never France.
-- Pops `{winner = …}` with `extra` merged when the scenario's rule decides, else the tie
-- (`{tied, what, extra}`) for the caller to ask Britain (`diplomacy.ask_britain`).
function diplomacy.break_tie(ctx, tied, what, extra)
  local winner = solitaire.tie_winner(ctx, tied)
  if winner == nil and ctx.vars.lutzen then
    if util.contains(tied, "BR") then
      winner = "BR"
    elseif powers.players(ctx) <= 2 and #tied == 2 then
      winner = "FR"
    end
  end
  if winner then
    ctx:log(string.format("%s is tied; by the scenario's tie rule %s wins it.", what, name(ctx, winner)))
    local result = { winner = winner }
    for k, v in pairs(extra) do
      result[k] = v
    end
    ctx:pop(result)
    return
  end
  ctx:pop({ tied = tied, what = what, extra = extra })
end

--- Britain's decision of a tie `break_tie` handed back: the call for a step to return (its
--- answer, `{winner = …}` with the tie's `extra`, comes back to the same step).
function diplomacy.ask_britain(tie)
  return steps.call("tie", { tied = tie.tied, what = tie.what, extra = tie.extra })
end

diplomacy.tie = {}

function diplomacy.tie.prompt(ctx)
  local actions = {}
  for _, power in ipairs(ctx.locals.tied) do
    actions[#actions + 1] = { name = "award", arg = power, label = "Award it to " .. name(ctx, power) }
  end
  local names = {}
  for _, power in ipairs(ctx.locals.tied) do
    names[#names + 1] = name(ctx, power)
  end
  return {
    seat = "BR",
    text = string.format("%s is tied between %s: as Britain, decide who wins it.", ctx.locals.what, table.concat(names, ", ")),
    actions = actions,
  }
end

function diplomacy.tie.award(ctx, power)
  ctx:log(string.format("Britain breaks the tie of %s: %s wins it.", ctx.locals.what, name(ctx, power)))
  local result = { winner = power }
  for k, v in pairs(ctx.locals.extra or {}) do
    result[k] = v
  end
  ctx:pop(result)
end

-- The free issue: the winner puts any available issue on its own track at the distance
-- high - low (a distance of 0: the Negotiation Table, RULES-GAPS.md).
diplomacy.free_issue = {}

function diplomacy.free_issue.prompt(ctx)
  local power, distance = ctx.locals.power, ctx.locals.distance
  local where = distance > 0 and display.describe(ctx, power, math.min(distance, display.SEAT)) or "the Negotiation Table"
  return {
    seat = powers.seat(ctx, power),
    text = as_power(ctx, power) .. string.format("You won the Wager: put an available issue on %s.", where),
    actions = choices_of_issues(ctx, power, "place", function(piece)
      return string.format("%s to %s", issue_name(ctx, piece), where)
    end),
  }
end

function diplomacy.free_issue.place(ctx, piece)
  local power, distance = ctx.locals.power, ctx.locals.distance
  local ok, why = available(ctx, piece, power, true)
  if not ok then
    error(string.format("%s cannot be placed: %s", issue_name(ctx, piece), why), 0)
  end
  local where = display.put(ctx, piece, power, math.min(distance, display.SEAT))
  if distance >= display.SEAT then
    ctx.vars.secured[piece] = true
  end
  ctx:log(string.format("%s puts %s on %s.", name(ctx, power), issue_name(ctx, piece), where))
  ctx:pop({})
end

-- Issue selection (16.2): clockwise from the wager winner's left, each power puts two
-- available issues on the Negotiation Table; a passive power places none.
diplomacy.selection = {}

-- The power selecting now (nil when all have).
local function selecting(ctx)
  local locals = ctx.locals
  for _, power in ipairs(locals.order) do
    if not powers.passive(ctx, power) and (locals.picks[power] or 0) < 2 then
      return power
    end
  end
  return nil
end

function diplomacy.selection.prompt(ctx)
  local power = selecting(ctx)
  local n = (ctx.locals.picks[power] or 0) + 1
  local actions = choices_of_issues(ctx, power, "select", function(piece)
    return issue_name(ctx, piece) .. " to the Negotiation Table"
  end)
  if #actions == 0 then
    actions[1] = { name = "none", label = "No issue is left to select" }
  end
  return {
    seat = powers.seat(ctx, power),
    text = as_power(ctx, power) .. string.format("Issue selection: choose your %s issue for the Negotiation Table.", n == 1 and "first" or "second"),
    actions = actions,
  }
end

local function selected(ctx, power)
  local locals = ctx.locals
  locals.picks[power] = (locals.picks[power] or 0) + 1
  if selecting(ctx) == nil then
    ctx:pop({})
  end
end

function diplomacy.selection.select(ctx, piece)
  local power = selecting(ctx)
  local ok, why = available(ctx, piece, power, true)
  if not ok then
    error(string.format("%s cannot be selected: %s", issue_name(ctx, piece), why), 0)
  end
  display.put(ctx, piece, nil, 0)
  ctx:log(string.format("%s selects %s.", name(ctx, power), issue_name(ctx, piece)))
  selected(ctx, power)
end

function diplomacy.selection.none(ctx)
  local power = selecting(ctx)
  ctx:log(string.format("%s finds no issue left to select.", name(ctx, power)))
  ctx.locals.picks[power] = 2
  selected(ctx, power)
end

-- The end of the phase (16.2): the power with the most issues on its National Track (its
-- Seat included) wins; Britain breaks ties. The winner scores 2 VP, France 4. A tie is a
-- sub-procedure of its own, returned for the phase's step to call.
function diplomacy.score(ctx)
  local counts = display.counts(ctx)
  local in_game = powers.in_game(ctx)
  local parts = {}
  for _, power in ipairs(in_game) do
    parts[#parts + 1] = string.format("%s %d", name(ctx, power), counts[power])
  end
  local _, tied = util.highest(in_game, function(power)
    return counts[power]
  end)
  ctx:log("End of the Diplomacy Phase, issues on each track: " .. table.concat(parts, ", ") .. ".")
  dip(ctx).counts = counts
  if #tied == 1 then
    diplomacy.award(ctx, tied[1])
    return nil
  end
  return steps.call("phase_tie", { tied = tied })
end

-- The tie of the phase, as a sub-procedure of its own so that the tie rules can pop.
diplomacy.phase_tie = {}

function diplomacy.phase_tie.run(ctx)
  diplomacy.break_tie(ctx, ctx.locals.tied, "The Diplomacy Phase", {})
end

function diplomacy.award(ctx, power)
  local vp = power == "FR" and 4 or 2
  local total = ctx:add_counter("vp." .. power, vp)
  dip(ctx).phase_winner = power
  ctx:log(string.format("%s wins the Diplomacy Phase: +%d VP (%d).", name(ctx, power), vp, total))
end

-- Two players (18.2.4): on the turn Austria at War occurs, Austria may take one Military
-- Operation at the end of the Diplomacy Phase, after the phase's winner is known, paying a
-- Resource for it in the Government Phase. The module reads "occurs" as: the Austria at
-- War issue stands on Austria's track now, and offers the Austrian Military Operation if it
-- is waiting on the display; taken, it goes on Austria at War's space, as the solitaire
-- rule places it (L1858; RULES-GAPS.md).
diplomacy.austria_operation = {}

-- The Austria at War marker on Austria's track, if it is there.
local function austria_at_war_on_track(ctx)
  for _, piece in ipairs(ctx.data.piece_ids) do
    if ctx.data.pieces[piece].props.issue == "austria_at_war" and display.track_of(ctx, piece) == "AU" then
      return piece
    end
  end
  return nil
end

function diplomacy.austria_operation_offered(ctx)
  return powers.variant(ctx) == 2 and not powers.austria_at_war(ctx) and display.waiting(ctx, "mil_op_au") ~= nil
    and austria_at_war_on_track(ctx) ~= nil
end

function diplomacy.austria_operation.prompt(ctx)
  return {
    seat = powers.seat(ctx, "AU"),
    text = "As Austria: Austria at War is on your track. Take the Austrian Military Operation? It does not count for the phase's winner, and Austria pays 1 Resource for it in the Government Phase (18.2.4).",
    actions = {
      { name = "take", label = "Take the Austrian Military Operation, beside Austria at War (1 Resource)" },
      { name = "decline", label = "Decline" },
    },
  }
end

function diplomacy.austria_operation.take(ctx)
  local piece = display.waiting(ctx, "mil_op_au")
  local _, _, n = display.where(ctx, austria_at_war_on_track(ctx))
  local where = display.put(ctx, piece, "AU", n)
  table.insert(ctx.vars.government_costs, { power = "AU", resources = 1, why = "the Austrian Military Operation of 18.2.4" })
  ctx:log(string.format("Austria takes the Austrian Military Operation (on %s); it will pay 1 Resource for it.", where))
  ctx:pop({})
end

function diplomacy.austria_operation.decline(ctx)
  ctx:log("Austria does not take a Military Operation.")
  ctx:pop({})
end

return diplomacy
