-- Napoleonic Wars Campaign: battles (section 19). The umpire adds up each side's combat
-- value and battle modifiers from the orders of battle (owner data the umpire keeps); the
-- rules find the odds column, shift it for the side with the battle advantage, roll 2d6
-- with the generals' modifiers, read the printed cell, and turn its percentages into losses
-- by arm, with pursuit and the cap by the opposing force. At sea the fleets' Intercept and
-- Evade orders first decide whether a battle is fought at all (19.6a).

local battle = {}

-- The tables by kind of battle, and each table's columns, lowest odds first.
battle.TABLES = {
  field = { id = "field_battle", columns = { "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "12:1" } },
  meeting = { id = "meeting_battle", columns = { "1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "10:1" } },
  siege = { id = "siege_battle", columns = { "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1" } },
  sea = { id = "sea_battle", columns = { "1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1" } },
}

-- The rolls whose cells the text prints in a table's sparse last column (12:1 of the field
-- table, 10:1 of the meeting table): 2, 7 and 11 only.
battle.SPARSE = {
  field = { [2] = true, [7] = true, [11] = true },
  meeting = { [2] = true, [7] = true, [11] = true },
}

-- The arms whose losses are counted, in the order a cap takes them (19.8).
battle.LAND_ARMS = { "infantry", "cavalry", "artillery" }
battle.SEA_ARMS = { "men_of_war", "frigates" }

local function ratio(column)
  local a, d = column:match("^(%d+):(%d+)$")
  return tonumber(a) / tonumber(d)
end

--- The index of the odds column of `kind` for combat values `attack` and `defend`: the
--- highest column the odds reach (odds round in the defender's favour, RULES-GAPS.md),
--- the lowest below it, the highest beyond it.
function battle.column(kind, attack, defend)
  local columns = battle.TABLES[kind].columns
  if defend <= 0 then
    return #columns
  end
  local odds = attack / defend
  local found = 1
  for i, column in ipairs(columns) do
    if odds >= ratio(column) - 1e-9 then
      found = i
    end
  end
  return found
end

--- The column after the battle advantage (19.3): one column towards the side that has it
--- ("attacker" or "defender"), kept on the table.
function battle.shifted(kind, index, advantage)
  local n = #battle.TABLES[kind].columns
  if advantage == "attacker" then
    index = index + 1
  elseif advantage == "defender" then
    index = index - 1
  end
  return math.max(1, math.min(n, index))
end

--- A printed cell read: each side's loss in percent and whether it retreats ("25/20R":
--- 25 to the attacker, 20 to the defender, who retreats; "-" is no loss).
function battle.parse(cell)
  local a, ar, d, dr = cell:match("^([-%d]+)(R?)/([-%d]+)(R?)$")
  if not a then
    error("not a battle result: " .. tostring(cell))
  end
  local pct = function(text) return text == "-" and 0 or tonumber(text) end
  return {
    attacker = { loss = pct(a), retreats = ar == "R" },
    defender = { loss = pct(d), retreats = dr == "R" },
    cell = cell,
  }
end

--- The printed cell of `kind` at column `index` and modified roll `roll` (kept within
--- 2-12). A cell the text leaves out of a sparse last column is read from the column to
--- its left (RULES-GAPS.md); returns the cell and the column it was read from.
function battle.cell(ctx, kind, index, roll)
  local tbl = battle.TABLES[kind]
  roll = math.max(2, math.min(12, roll))
  local printed = battle.SPARSE[kind]
  if printed and index == #tbl.columns and not printed[roll] then
    index = index - 1
  end
  local column = tbl.columns[index]
  return ctx.data.tables[tbl.id][column .. "/" .. roll], column, roll
end

--- Losses by arm (19.8): each arm present loses its share, half a unit or more rounded
--- up; the whole loss is capped at the number of units in the opposing force, the arms
--- taking it in the order listed (RULES-GAPS.md).
function battle.losses(arms, order, pct, cap)
  local lost, total = {}, 0
  for _, arm in ipairs(order) do
    local n = arms[arm] or 0
    local loss = (2 * n * pct + 100) // 200
    if cap and total + loss > cap then
      loss = math.max(0, cap - total)
    end
    lost[arm] = loss
    total = total + loss
  end
  return lost, total
end

local function units(arms, order)
  local n = 0
  for _, arm in ipairs(order) do
    n = n + (arms[arm] or 0)
  end
  return n
end

--- Resolves a battle from the umpire's figures. `b`: kind ("field", "meeting", "siege",
--- "sea"), attacker and defender (nations), cv = {attacker, defender} (combat values),
--- advantage ("attacker", "defender" or nil), drm (the generals' +1s: positive helps the
--- attacker), arms = {attacker = {...}, defender = {...}} (units present by arm), and the
--- roll (2d6). Returns the result, told in words by `battle.tell`.
function battle.resolve(ctx, b, roll)
  local kind = b.kind or "field"
  local order = kind == "sea" and battle.SEA_ARMS or battle.LAND_ARMS
  local index = battle.column(kind, b.cv.attacker, b.cv.defender)
  local shifted = battle.shifted(kind, index, b.advantage)
  -- A general's +1 counts in its side's favour: the low rolls are the attacker's.
  local modified = roll - (b.drm or 0)
  local cell, column, read = battle.cell(ctx, kind, shifted, modified)
  local result = battle.parse(cell)
  result.kind, result.roll, result.modified, result.column = kind, roll, read, column
  result.odds_column = battle.TABLES[kind].columns[index]
  local arms = b.arms or { attacker = {}, defender = {} }
  -- Pursuit (19.5a): the side that holds the field adds 1% to the loser's losses for every
  -- ten cavalry regiments it has; never after a siege, nor at sea.
  for _, side in ipairs({ "attacker", "defender" }) do
    local other = side == "attacker" and "defender" or "attacker"
    local r = result[side]
    r.pursuit = 0
    if kind ~= "siege" and kind ~= "sea" and r.retreats and not result[other].retreats then
      r.pursuit = (arms[other].cavalry or 0) // 10
    end
    local cap = units(arms[other], order)
    r.lost, r.total = battle.losses(arms[side], order, r.loss + r.pursuit, cap)
  end
  return result
end

local function side_words(ctx, name, r, order)
  local parts = {}
  for _, arm in ipairs(order) do
    if (r.lost[arm] or 0) > 0 then
      parts[#parts + 1] = string.format("%d %s", r.lost[arm], arm:gsub("_", " "))
    end
  end
  local lost = #parts > 0 and table.concat(parts, ", ") or "nothing"
  local pursuit = r.pursuit > 0 and string.format(" (+%d%% pursuit)", r.pursuit) or ""
  return string.format("%s loses %d%%%s: %s%s", name, r.loss, pursuit, lost, r.retreats and "; retreats" or "")
end

--- Tells a battle: the whole result to the nations that fought it (and the umpire), and
--- one public line to everyone.
function battle.tell(ctx, b, result)
  local order = result.kind == "sea" and battle.SEA_ARMS or battle.LAND_ARMS
  local a, d = ctx.data.seats[b.attacker].name, ctx.data.seats[b.defender].name
  local where = b.at and (" at " .. (ctx.data.places.map.space[b.at] or {}).name or b.at) or ""
  local text = string.format(
    "%s battle%s, %s against %s: odds %s, column %s, roll %d (%d modified): %s. %s. %s.",
    result.kind, where, a, d, result.odds_column, result.column, result.roll, result.modified,
    result.cell, side_words(ctx, a, result.attacker, order), side_words(ctx, d, result.defender, order))
  local captured = battle.captured(result)
  if captured then
    local by = captured.side == "attacker" and d or a
    local loser = captured.side == "attacker" and a or d
    text = text .. string.format(" %s captures %d of %s's lost ships.", by, captured.ships, loser)
  end
  for _, seat in ipairs({ b.attacker, b.defender }) do
    ctx:tell(seat, text)
  end
  ctx:log(string.format("A %s battle was fought%s between %s and %s.", result.kind, where, a, d))
  if b.death_of_general then
    battle.death_of_general(ctx, b)
  end
end

--- Captured ships (19.6e): after a sea battle, half the ships the defeated side lost
--- (rounded down, RULES-GAPS.md) go to the victor; the defeated side is the one that
--- retreats when the other does not. Nil when no side is defeated or no ship is taken.
function battle.captured(result)
  if result.kind ~= "sea" then
    return nil
  end
  for _, side in ipairs({ "attacker", "defender" }) do
    local other = side == "attacker" and "defender" or "attacker"
    if result[side].retreats and not result[other].retreats then
      local ships = result[side].total // 2
      return ships > 0 and { side = side, ships = ships } or nil
    end
  end
  return nil
end

--- The Death of a General (19.5c): in a turn of that event, one die for each side of a
--- battle; on a 1 the side's lowest-ranking general present is killed. Told to both.
function battle.death_of_general(ctx, b)
  local told = { b.attacker, b.defender }
  for _, seat in ipairs(told) do
    local die = ctx:roll(6, ctx.data.seats[seat].name .. "'s general in the battle", told)
    if die == 1 then
      for _, to in ipairs(told) do
        ctx:tell(to, string.format("%s's lowest-ranking general in the battle is killed.", ctx.data.seats[seat].name))
      end
    end
  end
end

--- The same battle seen from the other side: the defender attacks. The umpire's advantage
--- and generals' modifier keep the side they were entered for.
function battle.swapped(b)
  local flip = { attacker = "defender", defender = "attacker" }
  return {
    kind = b.kind, attacker = b.defender, defender = b.attacker, at = b.at,
    cv = { attacker = b.cv.defender, defender = b.cv.attacker },
    advantage = b.advantage and flip[b.advantage] or nil,
    drm = -(b.drm or 0),
    death_of_general = b.death_of_general,
    arms = { attacker = b.arms.defender, defender = b.arms.attacker },
  }
end

-- A fleet's orders at sea (19.6a), as the umpire enters them; a fleet without orders is
-- read as intercepting (RULES-GAPS.md).
battle.ORDERS = { intercept = "intercept", evade = "evade", none = "intercept" }

local function all_frigates(arms)
  return (arms.men_of_war or 0) == 0 and (arms.frigates or 0) > 0
end

--- Whether two fleets that meet at sea fight (19.6a, L652). `orders` = {attacker, defender}
--- ("intercept", "evade" or "none"). Both intercepting: a battle; both evading: none; one
--- of each: a die each (rolled by `roll(side)`), the evader escaping only by rolling
--- higher (a tie is the interceptor's, RULES-GAPS.md), and an evading fleet all of frigates
--- fleeing from an interceptor with a man of war instead of fighting. Returns the outcome
--- ("battle", "evades", "flees" or "both evade"), the battle as it is then fought (the
--- interceptor attacking an evader it caught, RULES-GAPS.md) and the dice.
function battle.encounter(b, orders, roll)
  local a, d = battle.ORDERS[orders.attacker], battle.ORDERS[orders.defender]
  if a == "intercept" and d == "intercept" then
    return "battle", b
  elseif a == "evade" and d == "evade" then
    return "both evade", nil
  end
  local dice = { attacker = roll("attacker"), defender = roll("defender") }
  local evader = a == "evade" and "attacker" or "defender"
  local interceptor = evader == "attacker" and "defender" or "attacker"
  if dice[evader] > dice[interceptor] then
    return "evades", nil, dice, evader
  end
  if all_frigates(b.arms[evader]) and (b.arms[interceptor].men_of_war or 0) >= 1 then
    return "flees", nil, dice, evader
  end
  return "battle", evader == "attacker" and battle.swapped(b) or b, dice, evader
end

--- Force march (12.5): the percent an army loses for `extra` hexes beyond its movement
--- (at most as many again: nil beyond), France at its own rate.
function battle.force_march(ctx, seat, movement, extra)
  if extra > movement then
    return nil
  end
  local rate = ctx.data.tables.force_march_loss[seat == "FR" and "FR" or "other"]
  return extra * rate
end

return battle
