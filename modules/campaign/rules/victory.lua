-- Napoleonic Wars Campaign: victory (sections 6 and 22). Each nation scores a Victory Point
-- for every Victory City it holds beyond those it started with, and one for each nation it
-- forced to submit; the most points win, and a tie goes to the nation that started with
-- fewer Victory Cities.

local victory = {}

--- A nation's starting Victory Cities: France's by the option `victory.france_start` (13
--- or 15, both printed), every other nation's from the data (owner data where unknown).
function victory.start(ctx, seat)
  if seat == "FR" then
    return tonumber(ctx.vars.options["victory.france_start"])
  end
  return ctx.data.tables.starting_victory_cities[seat]
end

--- Each nation's points: `held` Victory Cities by nation, `submissions` forced by nation.
function victory.points(ctx, held, submissions)
  local points = {}
  for _, seat in ipairs(ctx.vars.nations) do
    local beyond = math.max(0, (held[seat] or 0) - victory.start(ctx, seat))
    points[seat] = beyond + (submissions[seat] or 0)
  end
  return points
end

--- The winners: the most points, a tie to the smaller starting number (still tied: all).
function victory.winners(ctx, points)
  local best
  for _, seat in ipairs(ctx.vars.nations) do
    local key = { points[seat], -victory.start(ctx, seat) }
    if not best or key[1] > best[1] or (key[1] == best[1] and key[2] > best[2]) then
      best = key
    end
  end
  local winners = {}
  for _, seat in ipairs(ctx.vars.nations) do
    if points[seat] == best[1] and -victory.start(ctx, seat) == best[2] then
      winners[#winners + 1] = seat
    end
  end
  return winners
end

return victory
