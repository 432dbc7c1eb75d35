-- Napoleon: Aftermath, resolving a negotiation and moving the negotiation marker ("Region
-- Card"): the winning coalition is the one with more great powers; its powers with an
-- interest in the province's country are the candidates (all of them if none has one); the
-- candidate with the most diplomatic capital wins (armies in the country count; the holder of
-- the festivities marker breaks ties and hands the marker over); negated tokens are restored;
-- a token of the winner captures the province.

local board = include("rules/board.lua")
local modifiers = include("@lib/modifiers.lua")
local util = include("@lib/util.lua")

local negotiation = {}

--- The province under the negotiation marker.
function negotiation.province(ctx)
  local _, province = ctx:space_of("marker.negotiation")
  return province
end

--- A power's diplomatic capital in `country` as an explained sum: each full token 1, each
--- half-negated token ½, negated tokens nothing, and its army in the country 1.
function negotiation.capital(ctx, power, country)
  local _, full, half = board.tokens(ctx, power)
  local sum = modifiers.sum(string.format("%s's capital in %s", board.name(power),
    ctx.data.places.countries.space[country].name))
  sum:add(full, full == 1 and "token" or "tokens")
  sum:add_if(half > 0, half / 2, "for " .. half .. " half-negated")
  if util.contains(board.ARMY_POWERS, power) then
    local place, space = ctx:space_of("army." .. power)
    sum:add_if(place == "countries" and space == country, 1, "army")
  end
  return sum
end

--- The candidates of the negotiation at `province`, and those with the most capital.
function negotiation.contest(ctx, province)
  local country = board.country_of(ctx, province)
  local coalition, members = board.winning_coalition(ctx)
  local candidates = util.filter(members, function(power)
    return board.has_interest(ctx, power, country)
  end)
  if #candidates == 0 then
    candidates = members
  end
  local _, leaders = util.highest(candidates, function(power)
    return board.capital2(ctx, power, country)
  end)
  return candidates, leaders, coalition
end

--- The winner captures the province: negated tokens are restored, then one of the winner's
--- tokens moves from the circle onto the province (replaced if it was its last).
function negotiation.capture(ctx, province, winner)
  board.restore_all(ctx)
  local box = board.tokens(ctx, winner)
  ctx:move_units(box, "province." .. province, winner, 1)
  board.replenish(ctx, winner, box)
  ctx:log(string.format("%s captures %s.", board.name(winner), ctx.data.places.provinces.space[province].name))
end

--- Where the negotiation marker may go after a Region card naming `regions`: open
--- provinces of a named region other than the current one; else of any other region; else
--- of the same region. Empty when no province is open: the game is over.
function negotiation.destinations(ctx, regions, from_region)
  local open = board.open_provinces(ctx)
  local preferred, elsewhere, same = {}, {}, {}
  for _, province in ipairs(open) do
    local region = board.region_of(ctx, province)
    if region == from_region then
      same[#same + 1] = province
    elseif util.contains(regions, region) then
      preferred[#preferred + 1] = province
    else
      elsewhere[#elsewhere + 1] = province
    end
  end
  if #preferred > 0 then
    return preferred
  elseif #elsewhere > 0 then
    return elsewhere
  end
  return same
end

return negotiation
