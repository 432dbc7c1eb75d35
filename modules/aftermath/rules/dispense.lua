-- Napoleon: Aftermath, set-up ("Set Up"): the players take turns, beginning with the first
-- player, each selecting one of the eight markers next to the board and dispensing it: the
-- festivities marker is kept; the negotiation marker goes to any province; an army goes to
-- a country where its power has an interest, or to Germany; a token, with four of like kind,
-- goes to either coalition.

local board = include("rules/board.lua")

local dispense = {}

local function waiting(ctx)
  return ctx:pieces_at("dispense", "pool"), ctx:box("dispense")
end

local function coalition_label(ctx, box)
  local names = {}
  for _, power in ipairs(board.powers_in(ctx, box)) do
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
  for _, power in ipairs(board.POWERS) do
    if (tokens[power] or 0) > 0 then
      for _, box in ipairs(board.COALITIONS) do
        actions[#actions + 1] = {
          name = "place_tokens", arg = { power = power, coalition = box }, box = box,
          label = string.format("Five %s tokens to %s", board.name(power), coalition_label(ctx, box)),
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

-- After each marker the other player selects; when none is left, the first player plays.
local function next_selection(ctx)
  local pieces, tokens = waiting(ctx)
  if #pieces == 0 and next(tokens) == nil then
    ctx:set_phase("play")
    ctx:log("Every marker is dispensed: the first player begins.")
    ctx:replace("play", { seat = ctx.vars.first })
  else
    ctx:replace("dispense", { seat = board.other_seat(ctx.locals.seat) })
  end
end

function dispense.keep_festivities(ctx)
  ctx:place("marker.festivities", "festivities", ctx.locals.seat)
  ctx:log(ctx.locals.seat .. " keeps the festivities marker.")
  next_selection(ctx)
end

function dispense.place_negotiation(ctx, province)
  ctx:place("marker.negotiation", "provinces", province)
  ctx:log(string.format("%s puts the negotiation marker in %s.", ctx.locals.seat, ctx.data.places.provinces.space[province].name))
  next_selection(ctx)
end

function dispense.place_army(ctx, arg)
  ctx:place("army." .. arg.power, "countries", arg.country)
  ctx:log(string.format("%s puts the %s army in %s.", ctx.locals.seat, board.name(arg.power),
    ctx.data.places.countries.space[arg.country].name))
  next_selection(ctx)
end

function dispense.place_tokens(ctx, arg)
  ctx:move_units("dispense", arg.coalition, arg.power, 1)
  board.add_tokens(ctx, arg.power, 4, arg.coalition)
  ctx:log(string.format("%s puts five %s tokens in %s.", ctx.locals.seat, board.name(arg.power),
    arg.coalition == "coalition.A" and "Coalition A" or "Coalition B"))
  next_selection(ctx)
end

return dispense
