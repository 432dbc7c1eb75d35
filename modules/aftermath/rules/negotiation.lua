-- Napoleon: Aftermath, resolving a negotiation and moving the negotiation marker ("Region
-- Card"): the winning coalition is the one with more great powers; its powers with an
-- interest in the province's country are the candidates (all of them if none has one); the
-- candidate with the most diplomatic capital wins (armies in the country count; the holder of
-- the festivities marker breaks ties and hands the marker over); negated tokens are restored;
-- a token of the winner captures the province.

local board = include("rules/board.lua")
local util = include("@lib/util.lua")

local negotiation = {}

--- The province under the negotiation marker.
function negotiation.province(ctx)
  local _, province = ctx:space_of("marker.negotiation")
  return province
end

--- The candidates of the negotiation at `province`, and those with the most capital.
function negotiation.contest(ctx, province)
  local country = board.country_of(ctx, province)
  local coalition = board.winning_coalition(ctx)
  local members = board.powers_in(ctx, coalition)
  local candidates = {}
  for _, power in ipairs(members) do
    if board.has_interest(ctx, power, country) then
      candidates[#candidates + 1] = power
    end
  end
  if #candidates == 0 then
    candidates = members
  end
  local best, leaders = nil, {}
  for _, power in ipairs(candidates) do
    local capital = board.capital2(ctx, power, country)
    if best == nil or capital > best then
      best, leaders = capital, { power }
    elseif capital == best then
      leaders[#leaders + 1] = power
    end
  end
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
