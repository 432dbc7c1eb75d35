-- Napoleon: Aftermath, set-up ("Set Up"): the players take turns, beginning with the first
-- player, each selecting one of the eight markers next to the board and dispensing it: the
-- festivities marker is kept; the negotiation marker goes to any province; an army goes to
-- a country where its power has an interest, or to Germany; a token, with four of like kind,
-- goes to either coalition.

local board = include("rules/board.lua")
local steps = include("@lib/steps.lua")

local dispense = {}

local function waiting(ctx)
  return ctx:pieces_at("dispense", "pool"), ctx:box("dispense")
end

-- The seats in the order they select, one for each marker waiting: the first player, then
-- the other, and so on.
local function selections(ctx)
  local pieces, tokens = waiting(ctx)
  local n = #pieces
  for _, count in pairs(tokens) do
    n = n + count
  end
  local order, seat = {}, ctx.vars.first
  for i = 1, n do
    order[i] = seat
    seat = board.other_seat(seat)
  end
  return order
end

-- The game: the set-up's selections, then turns until the game is scored (rules/play.lua).
local game = steps.procedure("Napoleon: Aftermath", {
  {
    name = "Set Up: select and dispense the markers",
    calls = "dispense",
    each = selections,
    run = function(ctx, seat)
      return steps.call("dispense", { seat = seat })
    end,
  },
  {
    name = "Game Play",
    calls = "turn",
    run = function(ctx)
      ctx:set_phase("Play")
      ctx:log("Every marker is dispensed: the first player begins.")
      return steps.call("turn", { seat = ctx.vars.first })
    end,
  },
})

local function coalition_label(sides, box)
  local names = {}
  for _, power in ipairs(sides[box]) do
    names[#names + 1] = board.name(power)
  end
  local side = box == "coalition.A" and "Coalition A" or "Coalition B"
  return #names > 0 and string.format("%s (%s)", side, table.concat(names, ", ")) or side
end

function dispense.prompt(ctx)
  local pieces, tokens = waiting(ctx)
  local actions = {}
  for _, piece in ipairs(pieces) do
    if piece == "marker.festivities" then
      actions[#actions + 1] = { name = "keep_festivities", label = "Keep the festivities marker", piece = piece }
    elseif piece == "marker.negotiation" then
      for _, space in ipairs(ctx.data.places.provinces.spaces) do
        local country = ctx.data.places.countries.space[space.props.country].name
        actions[#actions + 1] = {
          name = "place_negotiation", arg = space.id, place = "provinces", space = space.id,
          label = string.format("Negotiation marker to %s (%s)", space.name, country),
        }
      end
    else
      local power = ctx.data.pieces[piece].props.power
      for _, country in ipairs(board.army_destinations(ctx, power)) do
        actions[#actions + 1] = {
          name = "place_army", arg = { power = power, country = country }, place = "countries", space = country,
          label = string.format("%s army to %s", board.name(power), ctx.data.places.countries.space[country].name),
        }
      end
    end
  end
  local sides = board.sides(ctx)
  for _, power in ipairs(board.POWERS) do
    if (tokens[power] or 0) > 0 then
      for _, box in ipairs(board.COALITIONS) do
        actions[#actions + 1] = {
          name = "place_tokens", arg = { power = power, coalition = box }, box = box,
          label = string.format("Five %s tokens to %s", board.name(power), coalition_label(sides, box)),
        }
      end
    end
  end
  return {
    seat = ctx.locals.seat,
    text = "Select a marker and dispense it",
    actions = actions,
  }
end

function dispense.keep_festivities(ctx)
  ctx:place("marker.festivities", "festivities", ctx.locals.seat)
  ctx:log("%s keeps the festivities marker.", board.seat_name(ctx, ctx.locals.seat))
  ctx:pop()
end

function dispense.place_negotiation(ctx, province)
  ctx:place("marker.negotiation", "provinces", province)
  ctx:log("%s puts the negotiation marker in %s.", board.seat_name(ctx, ctx.locals.seat), ctx.data.places.provinces.space[province].name)
  ctx:pop()
end

function dispense.place_army(ctx, arg)
  ctx:place("army." .. arg.power, "countries", arg.country)
  ctx:log("%s puts the %s army in %s.", board.seat_name(ctx, ctx.locals.seat), board.name(arg.power),
    ctx.data.places.countries.space[arg.country].name)
  ctx:pop()
end

function dispense.place_tokens(ctx, arg)
  ctx:move_units("dispense", arg.coalition, arg.power, 1)
  board.add_tokens(ctx, arg.power, 4, arg.coalition)
  ctx:log("%s puts five %s tokens in %s.", board.seat_name(ctx, ctx.locals.seat), board.name(arg.power),
    arg.coalition == "coalition.A" and "Coalition A" or "Coalition B")
  ctx:pop()
end

return { dispense = dispense, game = game }
