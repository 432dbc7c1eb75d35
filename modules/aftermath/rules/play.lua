-- Napoleon: Aftermath, the turn ("Game Play"): play a card, discard it, draw a replacement
-- while the deck lasts; turns alternate. Every card action is mandatory. The five card
-- types: Napoleon, Diplomat, Army, Influence (♦) and Region; "Game End" scoring. The turn
-- and a Region card's negotiation are declared steps (@lib/steps.lua); each choice a card
-- asks for is a state of its own that hands back to them.

local board = include("rules/board.lua")
local napoleon = include("rules/napoleon.lua")
local negotiation = include("rules/negotiation.lua")
local steps = include("@lib/steps.lua")
local util = include("@lib/util.lua")

local play = {}
local states = {}

local function card_name(ctx, card)
  return ctx.data.cards[card].name
end

-- Game End: both Great Power cards are shown; the higher-scoring power's player wins; on a
-- tie, the holder of the festivities marker wins.
local function game_end(ctx, why)
  local scores, powers = {}, {}
  for _, seat in ipairs({ "P1", "P2" }) do
    local card = ctx:zone("power." .. seat)[1]
    ctx:move_card(card, "revealed", "bottom")
    powers[seat] = ctx.data.cards[card].fields.power
    scores[seat] = play.effects.power.score(ctx, powers[seat])
  end
  local winner
  if scores.P1 ~= scores.P2 then
    winner = scores.P1 > scores.P2 and "P1" or "P2"
  else
    winner = board.festivities_holder(ctx)
  end
  local seat = function(id) return ctx.data.seats[id].name end
  local text = string.format("%s. %s held %s (%d), %s held %s (%d).", why, seat("P1"), board.name(powers.P1), scores.P1,
    seat("P2"), board.name(powers.P2), scores.P2)
  if scores.P1 == scores.P2 then
    text = text .. " Tied: the holder of the festivities marker wins."
  end
  ctx:game_over({ winner = winner, scores = scores, text = text })
end

-- After a card's action: draw while the deck lasts, then the other player's turn (a player
-- whose hand is empty is skipped; with both hands empty the game is scored).
local function end_turn(ctx, seat)
  ctx:set_turn(ctx:turn() + 1)
  if ctx:count("deck") > 0 then
    ctx:deal("deck", "hand." .. seat, 1)
  end
  local other = board.other_seat(seat)
  if ctx:count("hand." .. other) > 0 then
    ctx.locals.seat = other
  elseif ctx:count("hand." .. seat) == 0 then
    game_end(ctx, "Every card has been played")
    return steps.stop()
  end
end

-- Diplomat: the legal moves: a listed power whose tokens may change coalition without
-- leaving its coalition empty.
function play.diplomat_moves(ctx, card)
  local moves = {}
  local sides, side_of = board.sides(ctx)
  for _, power in ipairs(ctx.data.cards[card].fields.powers) do
    local box = side_of[power]
    if box ~= nil and #sides[box] > 1 then
      moves[#moves + 1] = power
    end
  end
  return moves
end

local function move_diplomat(ctx, power)
  local from = board.tokens(ctx, power)
  local to = board.other_coalition(from)
  for _, kind in ipairs({ power, power .. "_half", power .. "_negated" }) do
    local n = ctx:units(from, kind)
    if n > 0 then
      ctx:move_units(from, to, kind, n)
    end
  end
  ctx:log("%s's tokens move to the other coalition.", board.name(power))
end

-- Army: the legal moves: a listed power's army to another country of interest or Germany.
function play.army_moves(ctx, card)
  local moves = {}
  for _, power in ipairs(ctx.data.cards[card].fields.powers) do
    if util.contains(board.ARMY_POWERS, power) then
      local _, here = ctx:space_of("army." .. power)
      for _, country in ipairs(board.army_destinations(ctx, power)) do
        if country ~= here then
          moves[#moves + 1] = { power = power, country = country }
        end
      end
    end
  end
  return moves
end

-- Influence: full negation if the negotiation marker is in a named region or country (or
-- anywhere, for British Money), else half. The tokens that may be negated: any not fully
-- negated, of any power the card may be used against.
function play.influence_targets(ctx, card)
  local fields = ctx.data.cards[card].fields
  local province = negotiation.province(ctx)
  local full = fields.anywhere
    or util.contains(fields.regions, board.region_of(ctx, province))
    or util.contains(fields.countries, board.country_of(ctx, province))
  local targets = {}
  for _, power in ipairs(board.POWERS) do
    if power ~= fields.never_against then
      local _, whole, half = board.tokens(ctx, power)
      if whole > 0 then
        targets[#targets + 1] = { power = power, token = "full" }
      end
      if half > 0 then
        targets[#targets + 1] = { power = power, token = "half" }
      end
    end
  end
  return targets, full
end

local function negate(ctx, target, full)
  local box = board.tokens(ctx, target.power)
  local from = target.token == "full" and target.power or target.power .. "_half"
  local to
  if full or target.token == "half" then
    to = target.power .. "_negated"
  else
    to = target.power .. "_half"
  end
  ctx:add_units(box, from, -1)
  ctx:add_units(box, to, 1)
  local what = target.token == "half" and "half-negated " .. board.adjective(target.power) or board.adjective(target.power)
  local article = what:match("^[AEIOU]") and "An" or "A"
  ctx:log("%s %s token is %s.", article, what, (full or target.token == "half") and "negated" or "half negated")
end

-- Region: the negotiation under the marker is resolved (the holder of the festivities
-- marker breaks a tie), then the marker moves to an open province of a named region; with
-- none left open, the game ends.
states.negotiation = steps.procedure("Negotiation", {
  {
    name = "The contest",
    calls = "festivities",
    run = function(ctx)
      local province = negotiation.province(ctx)
      local candidates, leaders = negotiation.contest(ctx, province)
      for _, power in ipairs(candidates) do
        negotiation.capital(ctx, power, board.country_of(ctx, province)):log(ctx)
      end
      if #leaders > 1 then
        return steps.call("festivities", { seat = ctx.locals.seat, card = ctx.locals.card, tied = leaders })
      end
      negotiation.capture(ctx, province, leaders[1])
    end,
  },
  {
    name = "The negotiation marker",
    calls = "move_marker",
    run = function(ctx)
      local card = ctx.locals.card
      local options = negotiation.destinations(ctx, ctx.data.cards[card].fields.regions,
        board.region_of(ctx, negotiation.province(ctx)))
      if #options == 0 then
        game_end(ctx, "Every province has been captured")
        return steps.stop()
      elseif #options == 1 then
        ctx:place("marker.negotiation", "provinces", options[1])
        ctx:log("The negotiation marker moves to %s.", ctx.data.places.provinces.space[options[1]].name)
      else
        return steps.call("move_marker", { seat = ctx.locals.seat, card = card })
      end
    end,
  },
})

-- The turn: the seat to play plays a card; its action happens; then a card is drawn and
-- the other player plays (turns go on until the game is scored).
states.turn = steps.procedure("Turn", {
  {
    name = "Play a card",
    calls = "play",
    run = function(ctx)
      return steps.call("play", { seat = ctx.locals.seat })
    end,
    resume = function(ctx, card)
      ctx.locals.card = card
    end,
  },
  {
    name = "The card's action",
    calls = { "diplomat", "army", "influence", "negotiation" },
    run = function(ctx)
      local card = ctx.locals.card
      local effect = play.effects[ctx.data.cards[card].deck]
      return effect and effect.play(ctx, ctx.locals.seat, card)
    end,
  },
  {
    name = "Draw a card",
    run = function(ctx)
      return end_turn(ctx, ctx.locals.seat)
    end,
  },
  again = true,
})

-- The "play" state: the seat plays one card from its hand.
states.play = {}

function states.play.prompt(ctx)
  local seat = ctx.locals.seat
  local actions = {}
  for _, card in ipairs(ctx:zone("hand." .. seat)) do
    actions[#actions + 1] = { name = "play", arg = card, card = card, label = "Play " .. card_name(ctx, card) }
  end
  return { seat = seat, text = "Play a card", actions = actions }
end

function states.play.play(ctx, card)
  ctx:move_card(card, "discard", "top")
  ctx:log("%s plays %s.", board.seat_name(ctx, ctx.locals.seat), card_name(ctx, card))
  ctx:pop(card)
end

--- A card's `play` whose whole action is a choice asked in the state `state`, of the seat
--- that played the card (the turn waits for it).
local function asked_in(state)
  return function(ctx, seat, card)
    return steps.call(state, { seat = seat, card = card })
  end
end

-- The effects of the five card types, registered by card group; a `play` that asks for a
-- choice returns the call of the state that asks it (the turn waits for it).
play.effects = {
  -- Napoleon: the Napoleon marker moves one space along its track, and the space's changes
  -- to the circle happen.
  napoleon = {
    play = function(ctx)
      napoleon.play(ctx)
    end,
  },
  -- Diplomat: one of the two named powers moves all its tokens to the other coalition,
  -- if that leaves no coalition empty.
  diplomat = {
    play = function(ctx, seat, card)
      local moves = play.diplomat_moves(ctx, card)
      if #moves == 0 then
        ctx:log("Neither power can change coalition without leaving one empty: no effect.")
      elseif #moves == 1 then
        move_diplomat(ctx, moves[1])
      else
        return steps.call("diplomat", { seat = seat, card = card })
      end
    end,
  },
  -- Army: one of the named powers' armies moves to another country where that power has
  -- an interest, or to Germany.
  army = {
    play = asked_in("army"),
  },
  -- Influence: negate one token (fully where the card names the negotiation's region or
  -- country, else half), of any power the card may be used against.
  influence = {
    play = function(ctx, seat, card)
      if #play.influence_targets(ctx, card) == 0 then
        ctx:log("No token can be negated: pass.")
        return
      end
      return steps.call("influence", { seat = seat, card = card })
    end,
  },
  -- Region: the negotiation under the marker is resolved, then the marker moves to an open
  -- province of a named region.
  region = {
    play = asked_in("negotiation"),
  },
  -- Great Power: a player's secret identity; at the end it scores its provinces.
  power = {
    score = function(ctx, power)
      return board.score(ctx, power)
    end,
  },
}

states.diplomat = {}

function states.diplomat.prompt(ctx)
  local actions = {}
  for _, power in ipairs(play.diplomat_moves(ctx, ctx.locals.card)) do
    actions[#actions + 1] = { name = "move", arg = power, label = "Move " .. board.name(power) .. " to the other coalition" }
  end
  return { seat = ctx.locals.seat, text = card_name(ctx, ctx.locals.card) .. ": which power changes coalition?", actions = actions }
end

function states.diplomat.move(ctx, power)
  move_diplomat(ctx, power)
  ctx:pop()
end

states.army = {}

function states.army.prompt(ctx)
  local actions = {}
  for _, move in ipairs(play.army_moves(ctx, ctx.locals.card)) do
    actions[#actions + 1] = {
      name = "move", arg = move, place = "countries", space = move.country,
      label = string.format("%s army to %s", board.name(move.power), ctx.data.places.countries.space[move.country].name),
    }
  end
  return { seat = ctx.locals.seat, text = card_name(ctx, ctx.locals.card) .. ": move which army where?", actions = actions }
end

function states.army.move(ctx, move)
  ctx:place("army." .. move.power, "countries", move.country)
  ctx:log("The %s army moves to %s.", board.name(move.power), ctx.data.places.countries.space[move.country].name)
  ctx:pop()
end

states.influence = {}

function states.influence.prompt(ctx)
  local targets, full = play.influence_targets(ctx, ctx.locals.card)
  local actions = {}
  for _, target in ipairs(targets) do
    actions[#actions + 1] = {
      name = "negate", arg = target,
      label = string.format("%s a %s%s token", full and "Negate" or "Half negate", board.name(target.power),
        target.token == "half" and " half-negated" or ""),
    }
  end
  local text = string.format("%s: %s one token", card_name(ctx, ctx.locals.card), full and "negate" or "half negate")
  return { seat = ctx.locals.seat, text = text, actions = actions }
end

function states.influence.negate(ctx, target)
  local _, full = play.influence_targets(ctx, ctx.locals.card)
  negate(ctx, target, full)
  ctx:pop()
end

states.festivities = {}

function states.festivities.prompt(ctx)
  local holder = board.festivities_holder(ctx)
  local actions = {}
  for _, power in ipairs(ctx.locals.tied) do
    actions[#actions + 1] = { name = "award", arg = power, label = board.name(power) .. " wins the negotiation" }
  end
  local province = ctx.data.places.provinces.space[negotiation.province(ctx)].name
  return { seat = holder, text = "A tie for " .. province .. ": as holder of the festivities marker, decide who wins", actions = actions }
end

function states.festivities.award(ctx, power)
  local holder = board.festivities_holder(ctx)
  ctx:log("%s breaks the tie for %s and hands over the festivities marker.", board.seat_name(ctx, holder), board.name(power))
  ctx:place("marker.festivities", "festivities", board.other_seat(holder))
  negotiation.capture(ctx, negotiation.province(ctx), power)
  ctx:pop()
end

states.move_marker = {}

function states.move_marker.prompt(ctx)
  local card = ctx.locals.card
  local options = negotiation.destinations(ctx, ctx.data.cards[card].fields.regions,
    board.region_of(ctx, negotiation.province(ctx)))
  local actions = {}
  for _, province in ipairs(options) do
    local space = ctx.data.places.provinces.space[province]
    actions[#actions + 1] = {
      name = "move", arg = province, place = "provinces", space = province,
      label = string.format("Negotiation marker to %s (%s)", space.name, ctx.data.places.countries.space[space.props.country].name),
    }
  end
  return { seat = ctx.locals.seat, text = "Move the negotiation marker to an open province", actions = actions }
end

function states.move_marker.move(ctx, province)
  ctx:place("marker.negotiation", "provinces", province)
  ctx:log("The negotiation marker moves to %s.", ctx.data.places.provinces.space[province].name)
  ctx:pop()
end

play.states = states

return play
