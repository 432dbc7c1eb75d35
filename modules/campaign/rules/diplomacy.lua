-- Napoleonic Wars Campaign: diplomacy (section 7, L40-L44) and the enforced peace of a
-- submission (section 20.1, L852-L880). Wars, alliances and peaces are public, kept in
-- `ctx.vars` by pair of nations ("AU|FR", the two seat ids in alphabetical order):
--   war[pair] = true                         -- at war (France and Britain from the start)
--   alliances[pair] = { year = Y }           -- made or last renewed in the Winter of year Y
--   peace[pair] = { loser, to, terms, turns } -- an enforced peace: the turns left after this one
-- Only the Winter turn changes alliances and declares war; an ally of France may leave it
-- after Napoleon's defeat in any turn. Nobody attacks a nation it is not at war with: the
-- umpire's forms offer only nations at war as each other's enemies.

local calendar = include("rules/calendar.lua")
local util = include("@lib/util.lua")

local diplomacy = {}

-- The pairs that may never ally (L42): Britain and France; Turkey and Austria or Russia.
diplomacy.NEVER_ALLIED = { ["FR|GB"] = true, ["AU|OT"] = true, ["OT|RU"] = true }

-- The turns of enforced peace each term of submission brings (L856-L860): a year is four
-- turns (L20, L860).
diplomacy.PEACE_TURNS = { ["two-provinces"] = 4, ["one-province"] = 8, reparations = 4 }

--- The key of the pair `a`, `b` (either order).
function diplomacy.pair(a, b)
  if a < b then
    return a .. "|" .. b
  end
  return b .. "|" .. a
end

--- The two seats of a pair key.
function diplomacy.seats(key)
  return key:match("^(%u+)|(%u+)$")
end

function diplomacy.winter(ctx)
  return calendar.of(ctx:turn()) == "Winter"
end

function diplomacy.at_war(ctx, a, b)
  return a ~= nil and b ~= nil and a ~= b and ctx.vars.war[diplomacy.pair(a, b)] == true
end

function diplomacy.allied(ctx, a, b)
  return a ~= nil and b ~= nil and a ~= b and ctx.vars.alliances[diplomacy.pair(a, b)] ~= nil
end

--- The enforced peace between `a` and `b`, or nil.
function diplomacy.peace(ctx, a, b)
  if a == nil or b == nil or a == b then
    return nil
  end
  return ctx.vars.peace[diplomacy.pair(a, b)]
end

--- The nations for which `holds(seat)` is true, in seat order.
function diplomacy.nations_where(ctx, holds)
  return util.filter(ctx.vars.nations, holds)
end

--- The nations `seat` for which `relation(ctx, a, seat)` is true (at war with `a`, allied to
--- it…), in seat order.
function diplomacy.related(ctx, relation, a)
  return diplomacy.nations_where(ctx, function(seat)
    return relation(ctx, a, seat)
  end)
end

--- The nations at war with `a` (none for nil), in seat order.
function diplomacy.enemies(ctx, a)
  return diplomacy.related(ctx, diplomacy.at_war, a)
end

--- The nations at war with anyone, in seat order.
function diplomacy.belligerents(ctx)
  return diplomacy.nations_where(ctx, function(seat)
    return #diplomacy.enemies(ctx, seat) > 0
  end)
end

--- Whether `a` may declare war on `b` (L44): not on itself, nor on a nation it is at war
--- with already, at peace with by a submission's terms (L856-L860) or allied to (reading:
--- an alliance is broken first, in the same Winter turn; RULES-GAPS.md).
function diplomacy.may_declare(ctx, a, b)
  return a ~= nil and b ~= nil and a ~= b and not diplomacy.at_war(ctx, a, b)
    and diplomacy.peace(ctx, a, b) == nil and not diplomacy.allied(ctx, a, b)
end

--- Whether `a` and `b` may be allies (L42): never the forbidden pairs, and (reading) not
--- two nations at war with each other.
function diplomacy.may_ally(ctx, a, b)
  return a ~= nil and b ~= nil and a ~= b and not diplomacy.NEVER_ALLIED[diplomacy.pair(a, b)]
    and not diplomacy.at_war(ctx, a, b)
end

--- The nations `a` may declare war on, in seat order.
function diplomacy.targets(ctx, a)
  return diplomacy.related(ctx, diplomacy.may_declare, a)
end

--- The nations `a` may make, renew or break an alliance with, in seat order.
function diplomacy.partners(ctx, a)
  return diplomacy.nations_where(ctx, function(seat)
    return diplomacy.allied(ctx, a, seat) or diplomacy.may_ally(ctx, a, seat)
  end)
end

--- France's allies, in seat order.
function diplomacy.french_allies(ctx)
  return diplomacy.related(ctx, diplomacy.allied, "FR")
end

--- What may be done with the alliance of `a` and `b` this Winter: make one; renew one not
--- yet renewed this year; break one.
function diplomacy.alliance_moves(ctx, a, b)
  local moves = {}
  local alliance = a and b and a ~= b and ctx.vars.alliances[diplomacy.pair(a, b)]
  if alliance then
    local _, year = calendar.of(ctx:turn())
    if alliance.year < year then
      moves[#moves + 1] = "renew"
    end
    moves[#moves + 1] = "break"
  elseif diplomacy.may_ally(ctx, a, b) then
    moves[#moves + 1] = "make"
  end
  return moves
end

function diplomacy.declare(ctx, a, b)
  if not diplomacy.winter(ctx) or not diplomacy.may_declare(ctx, a, b) then
    error(string.format("%s may not declare war on %s now", a, b))
  end
  ctx.vars.war[diplomacy.pair(a, b)] = true
end

--- Makes, renews or breaks the alliance of `a` and `b` (`what`), in a Winter turn.
function diplomacy.alliance(ctx, a, b, what)
  local allowed = util.contains(diplomacy.alliance_moves(ctx, a, b), what)
  if not diplomacy.winter(ctx) or not allowed then
    error(string.format("the alliance of %s and %s may not be changed so now (%s)", a, b, what))
  end
  local key = diplomacy.pair(a, b)
  if what == "break" then
    ctx.vars.alliances[key] = nil
  else
    local _, year = calendar.of(ctx:turn())
    ctx.vars.alliances[key] = { year = year }
  end
end

--- The alliances not made or renewed in this Winter turn, which lapse as it ends (L42):
--- their keys, removed.
function diplomacy.lapse(ctx)
  local _, year = calendar.of(ctx:turn())
  local lapsed = util.filter(util.sorted_keys(ctx.vars.alliances), function(key)
    return ctx.vars.alliances[key].year < year
  end)
  for _, key in ipairs(lapsed) do
    ctx.vars.alliances[key] = nil
  end
  return lapsed
end

--- A submission (L852): the war between the two ends, and the enforced peace of the terms
--- chosen begins.
function diplomacy.submit(ctx, loser, to, terms)
  local key = diplomacy.pair(loser, to)
  ctx.vars.war[key] = nil
  ctx.vars.peace[key] = { loser = loser, to = to, terms = terms, turns = diplomacy.PEACE_TURNS[terms] }
end

return diplomacy
