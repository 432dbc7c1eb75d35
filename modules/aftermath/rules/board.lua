-- Napoleon: Aftermath, the board: who stands where in the negotiation circle, diplomatic
-- capital, interests, open provinces, adding and removing tokens (rules: "Board",
-- "Set Up", "Special Situations"). Every state is read from the table; nothing is kept here.

local util = include("@lib/util.lua")

local board = {}

board.POWERS = { "AU", "BR", "FR", "PR", "RU" }
board.COALITIONS = { "coalition.A", "coalition.B" }
board.ARMY_POWERS = { "AU", "PR", "RU" }

local NAMES = { AU = "Austria", BR = "Britain", FR = "France", PR = "Prussia", RU = "Russia" }
local ADJECTIVES = { AU = "Austrian", BR = "British", FR = "French", PR = "Prussian", RU = "Russian" }

--- A great power's name.
function board.name(power)
  return NAMES[power] or tostring(power)
end

--- A great power's adjective ("Austrian").
function board.adjective(power)
  return ADJECTIVES[power] or tostring(power)
end

--- The other half of the circle.
function board.other_coalition(box)
  return box == "coalition.A" and "coalition.B" or "coalition.A"
end

--- The other seat.
function board.other_seat(seat)
  return seat == "P1" and "P2" or "P1"
end

-- A power's full, half-negated and negated tokens among a box's contents.
local function held(contents, power)
  return contents[power] or 0, contents[power .. "_half"] or 0, contents[power .. "_negated"] or 0
end

--- Where a power's tokens are and how many: coalition box, full, half-negated, negated.
function board.tokens(ctx, power)
  for _, box in ipairs(board.COALITIONS) do
    local full, half, out = held(ctx:box(box), power)
    if full + half + out > 0 then
      return box, full, half, out
    end
  end
  return nil, 0, 0, 0
end

--- The powers with tokens in each coalition, in the usual order (`sides["coalition.A"]`),
--- and the coalition of each power with tokens in the circle (`side_of.AU`), from one
--- reading of the two coalition boxes (each power where `board.tokens` finds it).
function board.sides(ctx)
  local sides, side_of = {}, {}
  local contents = {}
  for _, box in ipairs(board.COALITIONS) do
    sides[box], contents[box] = {}, ctx:box(box)
  end
  for _, power in ipairs(board.POWERS) do
    for _, box in ipairs(board.COALITIONS) do
      local full, half, out = held(contents[box], power)
      if full + half + out > 0 then
        side_of[power] = box
        table.insert(sides[box], power)
        break
      end
    end
  end
  return sides, side_of
end

--- The coalition with more great powers (the rules' winning coalition), and its powers.
function board.winning_coalition(ctx)
  local sides = board.sides(ctx)
  local box = #sides["coalition.A"] >= #sides["coalition.B"] and "coalition.A" or "coalition.B"
  return box, sides[box]
end

--- The province's country, and the country's region, interests and double values.
function board.country_of(ctx, province)
  return ctx.data.places.provinces.space[province].props.country
end

function board.country(ctx, country)
  return ctx.data.places.countries.space[country].props
end

function board.region_of(ctx, province)
  return ctx.data.places.provinces.space[province].props.region
end

--- Whether a power has an interest in a country.
function board.has_interest(ctx, power, country)
  return util.contains(board.country(ctx, country).interests, power)
end

--- The countries an army may go to: those where its power has an interest, and Germany.
function board.army_destinations(ctx, power)
  local list = {}
  for _, space in ipairs(ctx.data.places.countries.spaces) do
    if space.id == "germany" or util.contains(space.props.interests, power) then
      list[#list + 1] = space.id
    end
  end
  return list
end

--- Twice a power's diplomatic capital in a country: full tokens count 2, half-negated 1,
--- negated 0, and its army in the country 2 (doubled to keep halves whole).
function board.capital2(ctx, power, country)
  local _, full, half = board.tokens(ctx, power)
  local capital = 2 * full + half
  if util.contains(board.ARMY_POWERS, power) then
    local place, space = ctx:space_of("army." .. power)
    if place == "countries" and space == country then
      capital = capital + 2
    end
  end
  return capital
end

--- Provinces nobody has captured yet, in map order.
function board.open_provinces(ctx)
  local list = {}
  for _, space in ipairs(ctx.data.places.provinces.spaces) do
    if ctx:units("province." .. space.id) == 0 then
      list[#list + 1] = space.id
    end
  end
  return list
end

--- The power that captured a province, or nil.
function board.captured_by(ctx, province)
  for power, n in pairs(ctx:box("province." .. province)) do
    if n > 0 then
      return power
    end
  end
  return nil
end

--- Adds `n` tokens of a power to `box`, from off the board. The count of tokens is not a
--- limit: past the last one, a coin stands in.
function board.add_tokens(ctx, power, n, box)
  local from_supply = math.min(n, ctx:units("supply", power))
  if from_supply > 0 then
    ctx:add_units("supply", power, -from_supply)
  end
  if from_supply < n then
    ctx:log(string.format("%s has run out of tokens: use a coin for %d more.", board.name(power), n - from_supply))
  end
  ctx:add_units(box, power, n)
end

--- Takes `n` tokens of a power out of the circle (full ones first, then half-negated, then
--- negated), back off the board; its last token is replaced from off the board.
function board.remove_tokens(ctx, power, n)
  local box = board.tokens(ctx, power)
  if box == nil then
    return 0
  end
  local removed = 0
  for _, kind in ipairs({ power, power .. "_half", power .. "_negated" }) do
    local take = math.min(n - removed, ctx:units(box, kind))
    if take > 0 then
      ctx:add_units(box, kind, -take)
      ctx:add_units("supply", power, take)
      removed = removed + take
    end
  end
  board.replenish(ctx, power, box)
  return removed
end

--- Special situation: a power whose last token left the circle gets one back from off the
--- board, in the coalition it was in.
function board.replenish(ctx, power, box)
  if board.tokens(ctx, power) == nil then
    board.add_tokens(ctx, power, 1, box)
    ctx:log(string.format("%s's last token left the circle: one is put back from off the board.", board.name(power)))
  end
end

--- Restores every negated and half-negated token in the circle.
function board.restore_all(ctx)
  for _, box in ipairs(board.COALITIONS) do
    for _, power in ipairs(board.POWERS) do
      for _, kind in ipairs({ power .. "_half", power .. "_negated" }) do
        local n = ctx:units(box, kind)
        if n > 0 then
          ctx:add_units(box, kind, -n)
          ctx:add_units(box, power, n)
        end
      end
    end
  end
end

--- The seat holding the festivities marker, or nil before it is dispensed.
function board.festivities_holder(ctx)
  local place, space = ctx:space_of("marker.festivities")
  if place == "festivities" then
    return space
  end
  return nil
end

--- The Great Power a seat holds: its private state, which only that seat (and the rules)
--- may read.
function board.seat_power(ctx, seat)
  return ctx.private[seat].power
end

--- A power's score: one per captured province, two where its country counts double.
function board.score(ctx, power)
  return util.sum(ctx.data.places.provinces.spaces, function(space)
    if board.captured_by(ctx, space.id) ~= power then
      return 0
    end
    return util.contains(board.country(ctx, space.props.country).double_for, power) and 2 or 1
  end)
end

--- A seat's name ("First player"), as players read it.
function board.seat_name(ctx, seat)
  return ctx.data.seats[seat].name
end

return board
