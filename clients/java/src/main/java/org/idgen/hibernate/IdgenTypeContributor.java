package org.idgen.hibernate;

import org.hibernate.boot.model.TypeContributions;
import org.hibernate.boot.model.TypeContributor;
import org.hibernate.service.ServiceRegistry;

/**
 * Registers {@link UlidType}, {@link PrefixedIdType}, {@link TypeIdType}, {@link KsuidType},
 * {@link ObjectIdType} and {@link XidType} with Hibernate, so that attributes of {@code Ulid},
 * {@code PrefixedId}, {@code TypeId}, {@code Ksuid}, {@code ObjectId} and {@code Xid} need no
 * {@code @Type}; and {@link BsonObjectIdType} for attributes of the BSON library's
 * {@code org.bson.types.ObjectId} where that library is on the class path. Found by Hibernate
 * through {@code META-INF/services/org.hibernate.boot.model.TypeContributor}.
 */
public final class IdgenTypeContributor implements TypeContributor
{
	/** The contributor, as the service loader instantiates it. */
	public IdgenTypeContributor()
	{
	}

	@Override
	public void contribute(TypeContributions contributions, ServiceRegistry serviceRegistry)
	{
		contributions.contributeType(new UlidType());
		contributions.contributeType(new PrefixedIdType());
		contributions.contributeType(new TypeIdType());
		contributions.contributeType(new KsuidType());
		contributions.contributeType(new ObjectIdType());
		contributions.contributeType(new XidType());
		if (bsonPresent())
			contributions.contributeType(new BsonObjectIdType());
	}

	/** Whether org.mongodb:bson is on the class path (an optional dependency: an application brings its own). */
	private static boolean bsonPresent()
	{
		try
		{
			Class.forName("org.bson.types.ObjectId", false, IdgenTypeContributor.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError e)
		{
			return false;
		}
	}
}
