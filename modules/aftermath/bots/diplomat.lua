-- Napoleon: Aftermath bot "diplomat": plays either seat. It values what each open province
-- would go to (the province under the negotiation marker counts most), weighting its own
-- great power highly, a second "decoy" power mildly (so that its play does not give its
-- identity away), and every other power against it. Each decision compares the position
-- before and after every legal action; its reasons say what it saw and chose, never which
-- power it holds. It sees only what its seat may see.

local flowchart = include("@lib/flowchart.lua")
local util = include("@lib/util.lua")
local board = include("rules/board.lua")
local negotiation = include("rules/negotiation.lua")
local play = include("rules/play.lua")

-- Each power's decoy: the power the bot also seems to favour.
local DECOY = { AU = "RU", BR = "AU", FR = "BR", PR = "FR", RU = "PR" }
local OWN, ALSO, OTHER = 1.0, 0.4, -0.35

local function weights(ctx, seat)
  local own = board.seat_power(ctx, seat)
  local w = {}
  for _, power in ipairs(board.POWERS) do
    w[power] = OTHER
  end
  if own then
    w[own] = OWN
    w[DECOY[own]] = ALSO
  end
  return w
end

-- The map as plain tables: each province's country and region, and each country's
-- interested and double-valuing powers as sets. The module's data never changes, so it is
-- read once, on first use (this script runs afresh for every game).
local map = nil
local function geography(ctx)
  if map then
    return map
  end
  local geo = { country = {}, region = {}, interest = {}, double = {} }
  for _, space in ipairs(ctx.data.places.countries.spaces) do
    geo.interest[space.id], geo.double[space.id] = {}, {}
    for _, power in ipairs(space.props.interests) do
      geo.interest[space.id][power] = true
    end
    for _, power in ipairs(space.props.double_for) do
      geo.double[space.id][power] = true
    end
  end
  for _, space in ipairs(ctx.data.places.provinces.spaces) do
    geo.country[space.id] = space.props.country
    geo.region[space.id] = space.props.region
  end
  map = geo
  return geo
end

-- A copy of what the rules read: coalitions, token states, armies, marker, festivities,
-- and the map (shared, never changed).
local function snapshot(ctx)
  local s = { coalition = {}, full = {}, half = {}, out = {}, army = {} }
  for _, power in ipairs(board.POWERS) do
    s.coalition[power], s.full[power], s.half[power], s.out[power] = board.tokens(ctx, power)
  end
  for _, power in ipairs(board.ARMY_POWERS) do
    local place, space = ctx:space_of("army." .. power)
    s.army[power] = place == "countries" and space or nil
  end
  s.province = negotiation.province(ctx)
  s.holder = board.festivities_holder(ctx)
  s.open = board.open_provinces(ctx)
  s.geo = geography(ctx)
  return s
end

-- A copy of a position to change (the map is shared). The copy leaves out the winning
-- coalition's members worked out for `s`: the copy is made to be changed, so it works out
-- its own.
local function copy(s)
  local geo, members, terms = s.geo, s.members, s.terms
  s.geo, s.members, s.terms = nil, nil, nil
  local t = util.copy(s)
  s.geo, s.members, s.terms, t.geo = geo, members, terms, geo
  return t
end

-- The powers of the winning coalition (the one with more powers; A on a tie) in position
-- `s`, in the usual order. Every province's winner needs them, so they are worked out
-- once per position and kept in it.
local function winning_members(s)
  if s.members == nil then
    local sides, powers = { ["coalition.A"] = {}, ["coalition.B"] = {} }, board.POWERS
    for i = 1, #powers do
      local side = sides[s.coalition[powers[i]]]
      if side then
        side[#side + 1] = powers[i]
      end
    end
    s.members = #sides["coalition.A"] >= #sides["coalition.B"] and sides["coalition.A"] or sides["coalition.B"]
  end
  return s.members
end

-- A power's capital in `country` (doubled, to stay in whole numbers): its tokens (half-
-- negated ones count half; negations count only where `pending`) and its army there.
local function capital_of(s, power, country, pending)
  local capital = pending and (2 * s.full[power] + s.half[power]) or 2 * (s.full[power] + s.half[power] + s.out[power])
  if s.army[power] == country then
    capital = capital + 2
  end
  return capital
end

-- The hot loops over plain lists (powers, members, open provinces, terms, destinations)
-- count with a number instead of `ipairs`, which calls a C function for every item (and
-- `table.insert` is one too): they run tens of thousands of times a game (0.93 of an
-- Aftermath game's instructions).

-- Who would win `province` in position `s` (negations count only where `pending`); a tie
-- goes the festivities holder's way: the bot's own best if it holds the marker, else its worst.
local function winner(ctx, s, province, pending, w, seat)
  local country = s.geo.country[province]
  local interested = s.geo.interest[country]
  local members = winning_members(s)
  -- The candidates are the interested members, or every member if none is interested.
  local any = false
  for i = 1, #members do
    if interested[members[i]] then
      any = true
      break
    end
  end
  -- The most capital, and how many candidates have it; the leaders' list is made only on
  -- a tie, in the same order as the candidates.
  local best, first, count = nil, nil, 0
  for i = 1, #members do
    local power = members[i]
    if not any or interested[power] then
      local capital = capital_of(s, power, country, pending)
      if best == nil or capital > best then
        best, first, count = capital, power, 1
      elseif capital == best then
        count = count + 1
      end
    end
  end
  if count < 2 then
    return first
  end
  local leaders = {}
  for i = 1, #members do
    local power = members[i]
    if not any or interested[power] then
      if capital_of(s, power, country, pending) == best then
        leaders[#leaders + 1] = power
      end
    end
  end
  -- A tie. table.sort is not stable, and several powers share a weight, so which of them
  -- ends up first or last depends on how it orders them: sort exactly as always rather
  -- than pick the extremes by hand, which could break those ties differently.
  table.sort(leaders, function(a, b) return w[a] > w[b] end)
  if s.holder ~= seat then
    return leaders[#leaders]
  end
  return leaders[1]
end

-- What a province is worth to the bot if `power` takes it.
local function worth(s, power, province, w)
  if power == nil then
    return 0
  end
  local double = s.geo.double[s.geo.country[province]][power]
  return w[power] * (double and 2 or 1)
end

-- What an open province adds to the value of position `s`: its worth, three times for the
-- pending one.
local function term(ctx, s, province, w, seat)
  local pending = province == s.province
  return worth(s, winner(ctx, s, province, pending, w, seat), province, w) * (pending and 3 or 1)
end

-- The value of a position: the sum of its open provinces' terms, added in map order.
local function value(ctx, s, w, seat)
  local sum, open = 0, s.open
  for i = 1, #open do
    sum = sum + term(ctx, s, open[i], w, seat)
  end
  return sum
end

-- The value of the position the bot decides in, with each province's term kept in `s`, so
-- that a change that touches a few countries needs only their terms worked out again (and
-- added in the same order: the same sum).
local function base_value(ctx, s, w, seat)
  local terms, sum, open = {}, 0, s.open
  for i = 1, #open do
    terms[i] = term(ctx, s, open[i], w, seat)
    sum = sum + terms[i]
  end
  s.terms = terms
  return sum
end

-- Each kind of change, made to a position in place: it returns what puts the position
-- back. A bot weighs dozens of changes a decision; changing and restoring one position
-- costs far less than copying it for each.
local function move_coalition(s, power)
  local before = s.coalition[power]
  s.coalition[power] = board.other_coalition(before)
  return function() s.coalition[power] = before end
end

-- An army counts only in the country it stands in: only that country's provinces and those
-- of the country it left change hands.
local function move_army(s, power, country)
  local before = s.army[power]
  s.army[power] = country
  local touched = { [country] = true }
  if before then
    touched[before] = true
  end
  return function() s.army[power] = before end, touched
end

-- A negation moves one token from full to half or out, or from half to out: a power's
-- capital changes only where negations count, in the pending province's country (nowhere
-- when no province is pending).
local function negate(s, target, full)
  local p = target.power
  local f, h, o = s.full[p], s.half[p], s.out[p]
  if target.token == "full" then
    s.full[p] = f - 1
    if full then s.out[p] = o + 1 else s.half[p] = h + 1 end
  else
    s.half[p] = h - 1
    s.out[p] = o + 1
  end
  local touched = {}
  if s.province then
    touched[s.geo.country[s.province]] = true
  end
  return function() s.full[p], s.half[p], s.out[p] = f, h, o end, touched
end

local function place_tokens(s, power, coalition)
  local c, f = s.coalition[power], s.full[power]
  s.coalition[power] = coalition
  s.full[power] = 5
  return function() s.coalition[power], s.full[power] = c, f end
end

-- The value of position `s` after `change(s, ...)`; `s` is put back afterwards. A change
-- that names the countries it touches leaves the coalitions as they were, and has only
-- their provinces' terms worked out again, the others taken from the position's own
-- (`base_value`): the same numbers summed in the same order, so the same value. After any
-- other change the winning coalition's members are worked out afresh.
local function value_after(ctx, s, w, seat, change, ...)
  local members = s.members
  local undo, touched = change(s, ...)
  if not touched then
    s.members = nil
  end
  local v
  if touched and s.terms then
    local open, terms, country = s.open, s.terms, s.geo.country
    v = 0
    for i = 1, #open do
      local province = open[i]
      v = v + (touched[country[province]] and term(ctx, s, province, w, seat) or terms[i])
    end
  else
    v = value(ctx, s, w, seat)
  end
  undo()
  s.members = members
  return v
end

local function track_changes(ctx, s)
  local t = copy(s)
  local _, here = ctx:space_of("marker.napoleon")
  local spaces = ctx.data.places.napoleon_track.spaces
  for i, space in ipairs(spaces) do
    if space.id == here and spaces[i + 1] then
      local nxt = spaces[i + 1]
      for power, change in pairs(nxt.props.tokens) do
        if t.coalition[power] then
          t.full[power] = math.max(t.full[power] + change, t.full[power] + t.half[power] + t.out[power] > 0 and 0 or 1)
        end
      end
      if nxt.props.event == "return" then
        t.army = {}
      end
    end
  end
  return t
end

-- The best destination for the negotiation marker after a capture in position `s`.
local function best_destination(ctx, s, regions, w, seat)
  local options = negotiation.destinations(ctx, regions, board.region_of(ctx, s.province))
  local best, best_value = nil, nil
  for i = 1, #options do
    local province = options[i]
    if province ~= s.province then
      local v = worth(s, winner(ctx, s, province, false, w, seat), province, w)
      if best_value == nil or v > best_value then
        best, best_value = province, v
      end
    end
  end
  return best, best_value or 0
end

-- Score of playing `card` (the gain over `base`, the current position's value) and what it
-- would do.
local function score_card(ctx, card, s, w, seat, base)
  local deck = ctx.data.cards[card].deck
  if deck == "region" then
    local who = winner(ctx, s, s.province, true, w, seat)
    local _, next_value = best_destination(ctx, s, ctx.data.cards[card].fields.regions, w, seat)
    return 4 * worth(s, who, s.province, w) + next_value, "it settles the pending negotiation"
  elseif deck == "napoleon" then
    return value(ctx, track_changes(ctx, s), w, seat) - base, "it moves Napoleon along the track"
  elseif deck == "diplomat" then
    local best = nil
    for _, power in ipairs(play.diplomat_moves(ctx, card)) do
      local v = value_after(ctx, s, w, seat, move_coalition, power) - base
      best = (best == nil or v > best) and v or best
    end
    return best or 0, "it can change the coalitions"
  elseif deck == "army" then
    local best = nil
    for _, move in ipairs(play.army_moves(ctx, card)) do
      local v = value_after(ctx, s, w, seat, move_army, move.power, move.country) - base
      best = (best == nil or v > best) and v or best
    end
    return best or 0, "it can move an army"
  elseif deck == "influence" then
    local targets, full = play.influence_targets(ctx, card)
    local best = nil
    for _, target in ipairs(targets) do
      local v = value_after(ctx, s, w, seat, negate, target, full) - base
      best = (best == nil or v > best) and v or best
    end
    return best or 0, "it can negate a token"
  end
  return 0, "it has no effect"
end

-- Picks the action whose position scores best; returns its index and that score.
local function best_action(actions, score)
  local best, best_score = flowchart.best(actions, score)
  return best or 1, best_score or 0
end

local bot = {}

function bot.play(ctx, seat, actions, t)
  local w = weights(ctx, seat)
  local s = snapshot(ctx)
  local who = winner(ctx, s, s.province, true, w, seat)
  t:sum(negotiation.capital(ctx, who, s.geo.country[s.province]), "1. The negotiation now: at %s it would go to %s,",
    ctx.data.places.provinces.space[s.province].name, board.name(who))
  local reasons = {}
  local base = base_value(ctx, s, w, seat)
  local index, score = best_action(actions, function(action)
    local v, why = score_card(ctx, action.card, s, w, seat, base)
    reasons[action.card] = why
    return v
  end)
  local card = actions[index].card
  return t:choose(index, "2. The best card: of %d cards, %s scores best (%+.1f): %s.", #actions, ctx.data.cards[card].name, score, reasons[card])
end

function bot.dispense(ctx, seat, actions, t)
  local w = weights(ctx, seat)
  local s = snapshot(ctx)
  local base = base_value(ctx, s, w, seat)
  t:step("1. Dispensing a marker: each choice is judged by who would win the open provinces.")
  local index, score = best_action(actions, function(action)
    local a = action.arg
    if action.name == "keep_festivities" then
      return 0.5
    elseif action.name == "place_negotiation" then
      local who = winner(ctx, s, a, false, w, seat)
      return worth(s, who, a, w)
    elseif action.name == "place_army" then
      return value_after(ctx, s, w, seat, move_army, a.power, a.country) - base
    elseif action.name == "place_tokens" then
      return value_after(ctx, s, w, seat, place_tokens, a.power, a.coalition) - base
    end
    return 0
  end)
  return t:choose(index, "2. The best marker: %s (%+.1f).", actions[index].label, score)
end

local function best_after(ctx, seat, actions, t, change)
  local w = weights(ctx, seat)
  local s = snapshot(ctx)
  local base = base_value(ctx, s, w, seat)
  local index, score = best_action(actions, function(action)
    return value_after(ctx, s, w, seat, change, action.arg) - base
  end)
  return t:choose(index, "The best position after it: %s (%+.1f).", actions[index].label, score)
end

function bot.diplomat(ctx, seat, actions, t)
  return best_after(ctx, seat, actions, t, move_coalition)
end

function bot.army(ctx, seat, actions, t)
  return best_after(ctx, seat, actions, t, function(s, move) return move_army(s, move.power, move.country) end)
end

function bot.influence(ctx, seat, actions, t)
  local _, full = play.influence_targets(ctx, ctx.locals.card)
  return best_after(ctx, seat, actions, t, function(s, target) return negate(s, target, full) end)
end

function bot.festivities(ctx, seat, actions, t)
  local w = weights(ctx, seat)
  local index = best_action(actions, function(action) return w[action.arg] end)
  return t:choose(index, "Breaking the tie: %s.", actions[index].label)
end

function bot.move_marker(ctx, seat, actions, t)
  local w = weights(ctx, seat)
  local s = snapshot(ctx)
  local index, score = best_action(actions, function(action)
    return worth(s, winner(ctx, s, action.arg, false, w, seat), action.arg, w)
  end)
  return t:choose(index, "Where the next negotiation looks best: %s (%+.1f).", actions[index].label, score)
end

-- `ctx` for one decision, remembering what it read of boxes, of their units in all and of
-- piece positions. Weighing every card, the rules helpers (board.tokens,
-- board.open_provinces, negotiation.province, ...) read the same coalition boxes and
-- markers over and over, and a bot only reads, so the answers cannot change during a
-- call. Made afresh for each call and dropped after it: the same VM plays many games,
-- which must not share anything. The box tables it hands out are shared between callers,
-- which only read them. Everything else is ctx's.
local function remembering(ctx)
  local boxes, units, places = {}, {}, {}
  local view = {}
  function view:box(id)
    if boxes[id] == nil then
      boxes[id] = ctx:box(id)
    end
    return boxes[id]
  end
  -- A box's units in all, remembered (ctx counts them without making the box's table);
  -- a kind is asked of ctx, which checks that the box holds that kind.
  function view:units(id, kind)
    if kind ~= nil then
      return ctx:units(id, kind)
    end
    if units[id] == nil then
      units[id] = ctx:units(id)
    end
    return units[id]
  end
  function view:space_of(piece)
    if places[piece] == nil then
      local place, space = ctx:space_of(piece)
      places[piece] = { place = place, space = space } -- a piece off the table is remembered too
    end
    return places[piece].place, places[piece].space
  end
  return setmetatable(view, { __index = ctx, __newindex = ctx })
end

return function(ctx, seat, actions)
  return flowchart.by_state(bot, remembering(ctx), seat, actions, "No plan for state %s: the first action.")
end
