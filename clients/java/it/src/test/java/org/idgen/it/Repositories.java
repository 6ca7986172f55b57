package org.idgen.it;

import java.util.List;
import java.util.UUID;
import org.idgen.Ksuid;
import org.idgen.ObjectId;
import org.idgen.PrefixedId;
import org.idgen.TypeId;
import org.idgen.Ulid;
import org.idgen.Xid;
import org.springframework.data.jpa.repository.JpaRepository;

/** The Spring Data repositories of the shop. */
public final class Repositories
{
	private Repositories()
	{
	}

	public interface Accounts extends JpaRepository<Account, PrefixedId>
	{
	}

	public interface Users extends JpaRepository<ShopUser, TypeId>
	{
	}

	// README snippet begins
	public interface Orders extends JpaRepository<Order, UUID>
	{
		Order findByRef(Ulid ref);

		List<Order> findByAccountId(PrefixedId accountId);

		List<Order> findByUserId(TypeId userId);
	}
	// README snippet ends

	public interface Events extends JpaRepository<Event, Long>
	{
	}

	public interface Messages extends JpaRepository<Message, Long>
	{
	}

	// README java begins
	public interface Notes extends JpaRepository<Note, ObjectId>
	{
		Note findByRef(Ksuid ref);

		List<Note> findByTrace(Xid trace);

		Note findByMongoId(org.bson.types.ObjectId mongoId);
	}
	// README java ends
}
